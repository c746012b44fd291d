"""A matplotlib Figure → deterministic, inline-ready SVG text.

Byte-identical across builds and machines with the same matplotlib: fixed hash salt, no date, no creator,
ids renumbered in order of appearance and prefixed with a hash of the figure's own content (so two
figures inline on one page never share an id, and the same figure always gets the same ids).
"""

from __future__ import annotations

import hashlib
import io
import re

from matplotlib.figure import Figure

from .style import FONT_FALLBACKS, INK, apply_house_style, raise_on_missing_glyphs

_NO_METADATA = {"Date": None, "Creator": None, "Format": None, "Type": None}
_PLACEHOLDER = "@@FIG@@"


def to_svg(fig: Figure, what: str = "figure") -> str:
    """Render ``fig`` to SVG text for inlining in HTML. ``what`` names the figure in error messages.

    The figure's layout is fixed afterwards (its layout engine has run and is removed).
    """
    if not isinstance(fig, Figure):
        raise ValueError(f"fig must be a matplotlib Figure, got {type(fig).__name__}")
    apply_house_style()
    buffer = io.StringIO()
    with raise_on_missing_glyphs(what):
        _settle_layout(fig)
        fig.savefig(buffer, format="svg", metadata=_NO_METADATA)
    return _clean(buffer.getvalue())


def _settle_layout(fig: Figure) -> None:
    """Run the figure's layout engine once, then drop it: the axes keep the positions it computed.

    With a layout engine set, ``savefig`` draws the whole figure twice (once with drawing disabled, only to
    run the layout, then for real); the layout alone is cheaper than that first draw, and the SVG is the same.
    """
    engine = fig.get_layout_engine()
    if engine is not None:
        engine.execute(fig)
        fig.set_layout_engine(None)


def _clean(svg: str) -> str:
    svg = svg[svg.index("<svg") :]  # drop the XML declaration and DOCTYPE: not allowed inline in HTML
    svg = re.sub(r"\s*<metadata>.*?</metadata>", "", svg, flags=re.S)
    # matplotlib's <style> is `*{stroke-linejoin: round; stroke-linecap: butt}`: inline, a <style> applies
    # to the whole page. Both properties inherit, so set them on the root element instead.
    svg = re.sub(r"\s*<style[^>]*>.*?</style>", "", svg, flags=re.S)
    svg = re.sub(r"\s*<defs>\s*</defs>", "", svg)
    svg = svg.replace(INK, "currentColor")
    # The font list is set once on the root (inherited) instead of on every <text>.
    svg = svg.replace("font-family: 'IPAexGothic'; ", "").replace("; font-family: 'IPAexGothic'", "")
    if "IPAexGothic" in svg:
        raise ValueError("to_svg: a <text> names a font other than the house font; fix the figure's fontfamily")
    svg = _compact(svg)
    svg = _renumber_ids(svg)
    svg = _rects_and_groups(svg)
    svg = svg.replace(
        "<svg ",
        '<svg class="tf-figure" stroke-linejoin="round" stroke-linecap="butt" '
        f'style="max-width: 100%; height: auto; font-family: {FONT_FALLBACKS}" ',
        1,
    )
    return svg.strip() + "\n"


_GEOMETRY_ATTR = re.compile(r'\b(d|x|y|width|height|transform|points)="([^"]*)"')
_LONG_DECIMAL = re.compile(r"-?\d+\.\d{3,}")


def _compact(svg: str) -> str:
    """Shrink geometry only (never text content): 2 decimals of a point are below a pixel's hundredth."""

    def short(number: re.Match) -> str:
        text = f"{float(number.group(0)):.2f}".rstrip("0").rstrip(".")
        return "0" if text == "-0" else text

    def attribute(match: re.Match) -> str:
        value = _LONG_DECIMAL.sub(short, match.group(2))
        value = re.sub(r"\s*\n\s*", " ", value).strip()
        return f'{match.group(1)}="{value}"'

    svg = _GEOMETRY_ATTR.sub(attribute, svg)
    svg = re.sub(r' transform="rotate\(-?0 [^)]*\)"', "", svg)
    return re.sub(r'\s*<path d="[^"]*" style="fill: none"/>', "", svg)  # invisible background patches


def _drop_empty_groups(svg: str) -> str:
    previous = None
    while previous != svg:
        previous, svg = svg, re.sub(r"\s*<g>\s*</g>|\s*<g/>", "", svg)
    return svg


def _renumber_ids(svg: str) -> str:
    """Keep only ids that are referenced; rename them ``<hash>-<n>`` in order of appearance."""
    referenced = set(re.findall(r"url\(#([^)]+)\)", svg)) | set(re.findall(r'href="#([^"]+)"', svg))
    new_name: dict[str, str] = {}

    def rename_definition(match: re.Match) -> str:
        old = match.group(1)
        if old not in referenced:
            return ""
        new_name[old] = f"{_PLACEHOLDER}-{len(new_name) + 1}"
        return f' id="{new_name[old]}"'

    svg = re.sub(r'\s+id="([^"]+)"', rename_definition, svg)
    svg = re.sub(r"url\(#([^)]+)\)", lambda m: f"url(#{new_name[m.group(1)]})", svg)
    svg = re.sub(r'href="#([^"]+)"', lambda m: f'href="#{new_name[m.group(1)]}"', svg)
    svg = _drop_empty_groups(svg)
    digest = hashlib.sha256(svg.encode()).hexdigest()[:10]
    return svg.replace(_PLACEHOLDER, f"f{digest}")


_NUMBER = r"(-?[\d.]+)"
_RECT_PATH = re.compile(
    rf'<path d="M {_NUMBER} {_NUMBER} L {_NUMBER} {_NUMBER} L {_NUMBER} {_NUMBER} L {_NUMBER} {_NUMBER}'
    rf'(?: L {_NUMBER} {_NUMBER})?(?: z)?"(?P<rest>[^>]*)/>'
)
_LONE_CHILD_GROUP = re.compile(r"<g>\s*(<\w+\b[^>]*/>|<text\b[^>]*>[^<]*</text>)\s*</g>")


def _rects_and_groups(svg: str) -> str:
    """Axis-aligned rectangles (heatmap cells) as <rect>, single-child <g> unwrapped, indentation dropped.

    About halves a 16 × 16 annotated heatmap; nothing visible changes.
    """

    def rect(match: re.Match) -> str:
        p = [float(v) for v in match.groups()[:8]]
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = zip(p[0::2], p[1::2], strict=True)
        closes = match.group(9) is None or (float(match.group(9)), float(match.group(10))) == (x0, y0)
        if not closes or not ((y0 == y1 and x1 == x2 and y2 == y3 and x3 == x0)
                              or (x0 == x1 and y1 == y2 and x2 == x3 and y3 == y0)):  # fmt: skip
            return match.group(0)
        left, top = min(x0, x2), min(y0, y2)
        width, height = abs(x2 - x0), abs(y2 - y0)
        return (
            f'<rect x="{_short(left)}" y="{_short(top)}" width="{_short(width)}" height="{_short(height)}"'
            f"{match.group('rest')}/>"
        )

    svg = _RECT_PATH.sub(rect, svg)
    previous = None
    while previous != svg:
        previous, svg = svg, _LONE_CHILD_GROUP.sub(r"\1", svg)
    return re.sub(r"\n[ \t]+<", "\n<", svg)


def _short(value: float) -> str:
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text
