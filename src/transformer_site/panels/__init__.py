"""The interactive panels of the try-it page: their HTML and data, and the preset as data for the browser's kernel.

``html`` makes each panel (the data embedded as text in a ``<template>``, which the build moves to a file of its
own, ``transformer_site.publishing.panel_data``; the controls, the readouts);
``kernel_data`` gives the preset's weights, vocabulary, knobs and formula constants to
``docs/assets/javascripts/kernel.js``, so the browser retypes none of them; ``generation`` makes the generation
panel from the decoder preset. A page's snippet calls one of the four panel functions below.
"""

from .generation import generation_panel_html
from .html import explorer_panel_html, pe_panel_html, sdpa_panel_html

__all__ = ["explorer_panel_html", "generation_panel_html", "pe_panel_html", "sdpa_panel_html"]
