"""docs/notes/10-references.md: the numbered entries of §10, the one place where a source's details are written.

Every statement of the site about a paper, a model or history cites one of these entries with the section,
table or page it comes from: ``[@vaswani2017, §3.5]`` (rendered as the link ``[1, §3.5]``). An entry lists the
places of the source that the site cites (``locators``, each with its heading in the source, shown on hover),
and the figures the site quotes from it (``figures``: a literal ``{{ 65 reported @vaswani2017, Table 3 }}`` must
be one of them). The entries are numbered in the order of this tuple, which is also their order on §10.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType


@dataclass(frozen=True)
class Reference:
    """One entry of §10."""

    key: str  # how pages cite it: [@key, locator]
    authors: str  # as printed in the entry
    year: int
    title: str
    venue: str  # "NeurIPS 2017", "OpenAI (technical report)"
    url: str
    link_text: str  # "arXiv"
    short: str  # "Vaswani et al." (the tooltip of a citation)
    locators: Mapping[str, str] = field(default_factory=dict)  # "§3.5" → "Positional Encoding"
    figures: Mapping[str, tuple[float, ...]] = field(default_factory=dict)  # locator → figures reported there

    def __post_init__(self):
        object.__setattr__(self, "locators", MappingProxyType(dict(self.locators)))
        object.__setattr__(self, "figures", MappingProxyType({k: tuple(v) for k, v in self.figures.items()}))
        unknown = set(self.figures) - set(self.locators)
        if unknown:
            raise ValueError(f"{self.key}: figures at {sorted(unknown)}, which are not among its locators")


# fmt: off
REFERENCES: tuple[Reference, ...] = (
    Reference(
        "vaswani2017",
        "Vaswani, A., Shazeer, N., Parmar, N., Uszkoreit, J., Jones, L., Gomez, A. N., Kaiser, Ł., Polosukhin, I.",
        2017, "Attention Is All You Need", "NeurIPS 2017", "https://arxiv.org/abs/1706.03762", "arXiv",
        "Vaswani et al.",
        locators={
            "Abstract": "Abstract",
            "§1": "Introduction",
            "§3": "Model Architecture",
            "§3.1": "Encoder and Decoder Stacks",
            "§3.2.1": "Scaled Dot-Product Attention",
            "§3.2.2": "Multi-Head Attention",
            "§3.2.3": "Applications of Attention in our Model",
            "§3.3": "Position-wise Feed-Forward Networks",
            "§3.4": "Embeddings and Softmax",
            "§3.5": "Positional Encoding",
            "§4": "Why Self-Attention",
            "§5.1": "Training Data and Batching",
            "§5.2": "Hardware and Schedule",
            "§5.3": "Optimizer",
            "§5.4": "Regularization",
            "§6.1": "Machine Translation",
            "Table 1": "Maximum path lengths, per-layer complexity and minimum number of sequential operations",
            "Table 3": "Variations on the Transformer architecture",
            "Figure 1": "The Transformer - model architecture",
        },
        figures={"Table 3": (65,), "§6.1": (0.1,)},  # base: 65 × 10^6 parameters; P_drop of big for EN-FR
    ),
    Reference(
        "he2016", "He, K., Zhang, X., Ren, S., Sun, J.", 2016, "Deep Residual Learning for Image Recognition",
        "CVPR 2016", "https://arxiv.org/abs/1512.03385", "arXiv", "He et al.",
        locators={"Abstract": "Abstract", "§3.2": "Identity Mapping by Shortcuts"},
    ),
    Reference(
        "ba2016", "Ba, J. L., Kiros, J. R., Hinton, G. E.", 2016, "Layer Normalization", "arXiv preprint",
        "https://arxiv.org/abs/1607.06450", "arXiv", "Ba et al.",
        locators={"Abstract": "Abstract", "§3": "Layer normalization"},
    ),
    Reference(
        "xiong2020",
        "Xiong, R., Yang, Y., He, D., Zheng, K., Zheng, S., Xing, C., Zhang, H., Lan, Y., Wang, L., Liu, T.-Y.",
        2020, "On Layer Normalization in the Transformer Architecture", "ICML 2020",
        "https://arxiv.org/abs/2002.04745", "arXiv", "Xiong et al.",
        locators={"Abstract": "Abstract", "§3": "Optimization for the Transformer",
                  "§3.3": "Understanding the Transformer at initialization",
                  "§3.4": "Empirical verification of the theory and discussion", "§4": "Experiments"},
    ),
    Reference(
        "baevski2019", "Baevski, A., Auli, M.", 2019,
        "Adaptive Input Representations for Neural Language Modeling", "ICLR 2019",
        "https://arxiv.org/abs/1809.10853", "arXiv", "Baevski & Auli",
        locators={"Abstract": "Abstract", "§4": "Experimental Setup"},
    ),
    Reference(
        "wang2019", "Wang, Q., Li, B., Xiao, T., Zhu, J., Li, C., Wong, D. F., Chao, L. S.", 2019,
        "Learning Deep Transformer Models for Machine Translation", "ACL 2019",
        "https://arxiv.org/abs/1906.01787", "arXiv", "Wang et al.",
        locators={"Abstract": "Abstract"},
    ),
    Reference(
        "hendrycks2016", "Hendrycks, D., Gimpel, K.", 2016, "Gaussian Error Linear Units (GELUs)", "arXiv preprint",
        "https://arxiv.org/abs/1606.08415", "arXiv", "Hendrycks & Gimpel",
        locators={"§2": "GELU Formulation"},
        figures={"§2": (0.044715,)},  # the coefficient of the tanh approximation
    ),
    Reference(
        "kingma2015", "Kingma, D. P., Ba, J.", 2015, "Adam: A Method for Stochastic Optimization", "ICLR 2015",
        "https://arxiv.org/abs/1412.6980", "arXiv", "Kingma & Ba",
        locators={"Algorithm 1": "Adam"},
        figures={"Algorithm 1": (0.9, 0.999)},  # the suggested defaults of β1 and β2
    ),
    Reference(
        "geva2021", "Geva, M., Schuster, R., Berant, J., Levy, O.", 2021,
        "Transformer Feed-Forward Layers Are Key-Value Memories", "EMNLP 2021",
        "https://arxiv.org/abs/2012.14913", "arXiv", "Geva et al.",
        locators={"Abstract": "Abstract", "§2": "Feed-Forward Layers as Unnormalized Key-Value Memories"},
    ),
    Reference(
        "elhage2021", "Elhage, N., Nanda, N., Olsson, C., et al.", 2021,
        "A Mathematical Framework for Transformer Circuits",
        "Anthropic", "https://transformer-circuits.pub/2021/framework/index.html", "transformer-circuits.pub",
        "Elhage et al.",
        locators={"Residual stream": "The Residual Stream"},
    ),
    Reference(
        "devlin2019", "Devlin, J., Chang, M.-W., Lee, K., Toutanova, K.", 2019,
        "BERT: Pre-training of Deep Bidirectional Transformers for Language Understanding", "NAACL 2019",
        "https://arxiv.org/abs/1810.04805", "arXiv", "Devlin et al.",
        locators={
            "Abstract": "Abstract",
            "§1": "Introduction",
            "§2.1": "Unsupervised Feature-based Approaches",
            "§3": "BERT",
            "§3.1": "Pre-training BERT",
            "§4": "Experiments",
            "§5.1": "Effect of Pre-training Tasks",
            "Appendix A.2": "Pre-training Procedure",
            "§5.2": "Effect of Model Size",
            "§5.3": "Feature-based Approach with BERT",
        },
        # BERT-base and BERT-large (millions of parameters), the WordPiece vocabulary
        figures={"§3": (110, 340, 30000)},
    ),
    Reference(
        "radford2018",
        "Radford, A., Narasimhan, K., Salimans, T., Sutskever, I.", 2018,
        "Improving Language Understanding by Generative Pre-Training", "OpenAI (technical report)",
        "https://cdn.openai.com/research-covers/language-unsupervised/language_understanding_paper.pdf", "PDF",
        "Radford et al.",
        locators={"§3.1": "Unsupervised pre-training", "§3.2": "Supervised fine-tuning", "Abstract": "Abstract",
                  "§3.3": "Task-specific input transformations", "§4.1": "Setup"},
    ),
    Reference(
        "radford2019",
        "Radford, A., Wu, J., Child, R., Luan, D., Amodei, D., Sutskever, I.", 2019,
        "Language Models are Unsupervised Multitask Learners", "OpenAI (technical report)",
        "https://cdn.openai.com/better-language-models/language_models_are_unsupervised_multitask_learners.pdf",
        "PDF", "Radford et al.",
        locators={"Abstract": "Abstract", "§2.2": "Input Representation", "§2.3": "Model",
                  "Table 2": "Architecture hyperparameters"},
        figures={"Table 2": (117,)},  # the smallest model, millions of parameters
    ),
    Reference(
        "brown2020", "Brown, T. B., Mann, B., Ryder, N., Subbiah, M., et al.", 2020,
        "Language Models are Few-Shot Learners", "NeurIPS 2020", "https://arxiv.org/abs/2005.14165", "arXiv",
        "Brown et al.",
        locators={"§2": "Approach", "§2.1": "Model and Architectures",
                  "Table 2.1": "Sizes, architectures, and learning hyper-parameters"},
        figures={"Table 2.1": (175,)},  # GPT-3, billions of parameters
    ),
    Reference(
        "raffel2020",
        "Raffel, C., Shazeer, N., Roberts, A., Lee, K., Narang, S., Matena, M., Zhou, Y., Li, W., Liu, P. J.", 2020,
        "Exploring the Limits of Transfer Learning with a Unified Text-to-Text Transformer", "JMLR 21",
        "https://arxiv.org/abs/1910.10683", "arXiv", "Raffel et al.",
        locators={"§2.1": "Model"},
    ),
    Reference(
        "dosovitskiy2021", "Dosovitskiy, A., Beyer, L., Kolesnikov, A., et al.", 2021,
        "An Image is Worth 16x16 Words: Transformers for Image Recognition at Scale", "ICLR 2021",
        "https://arxiv.org/abs/2010.11929", "arXiv", "Dosovitskiy et al.",
        locators={"§3.1": "Vision Transformer (ViT)"},
    ),
    Reference(
        "bahdanau2015", "Bahdanau, D., Cho, K., Bengio, Y.", 2015,
        "Neural Machine Translation by Jointly Learning to Align and Translate", "ICLR 2015",
        "https://arxiv.org/abs/1409.0473", "arXiv", "Bahdanau et al.",
        locators={"§3.1": "Decoder: General Description", "Appendix A.1.2": "Alignment Model"},
    ),
    Reference(
        "holtzman2020", "Holtzman, A., Buys, J., Du, L., Forbes, M., Choi, Y.", 2020,
        "The Curious Case of Neural Text Degeneration", "ICLR 2020", "https://arxiv.org/abs/1904.09751", "arXiv",
        "Holtzman et al.",
        locators={"Abstract": "Abstract", "§3.1": "Nucleus Sampling", "§3.2": "Top-k Sampling",
                  "§3.3": "Sampling with Temperature"},
    ),
    Reference(
        "sennrich2016", "Sennrich, R., Haddow, B., Birch, A.", 2016,
        "Neural Machine Translation of Rare Words with Subword Units", "ACL 2016",
        "https://arxiv.org/abs/1508.07909", "arXiv", "Sennrich et al.",
        locators={"§3.2": "Byte Pair Encoding (BPE)", "Algorithm 1": "Learn BPE operations"},
    ),
    Reference(
        "schuster2012", "Schuster, M., Nakajima, K.", 2012, "Japanese and Korean Voice Search", "ICASSP 2012",
        "https://research.google/pubs/japanese-and-korean-voice-search/", "Google Research", "Schuster & Nakajima",
        locators={"WordPieceModel": "WordPieceModel"},
    ),
)
# fmt: on

_BY_KEY = {reference.key: reference for reference in REFERENCES}
if len(_BY_KEY) != len(REFERENCES):
    raise ValueError("two references share a key")


def reference(key: str) -> Reference:
    """The entry cited as ``@key``; KeyError if §10 has none."""
    return _BY_KEY[key]


def number(key: str) -> int:
    """The entry's number on §10 (1-based)."""
    return REFERENCES.index(_BY_KEY[key]) + 1


def year(key: str) -> int:
    """The entry's year (what a ``{{ 2017 year @key }}`` marker must say)."""
    return _BY_KEY[key].year
