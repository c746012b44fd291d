"""The decoder track (``docs/decoder/``): one module per page, ``NN-name.md`` → ``name.py``.

The pages compute on the decoder preset (``transformer_math.decoder_preset``): two of the notes' blocks under
the causal mask, the output tied to W_E, trained on the eight sentences. The section is called ``decoder``; the
math layer's modules it reads have other names (``decoder_model``, ``decoder_preset``, ``generation``, …), so
neither hides the other in the citable namespace.
"""
