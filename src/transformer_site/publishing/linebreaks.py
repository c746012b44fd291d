"""Drop the line breaks that Markdown source keeps between two Japanese characters.

Authors wrap long Japanese paragraphs in the source; in HTML each wrap is a segment break that Chromium
renders as a space ("です。 次に"), because it does not implement CSS Text's rule that removes a segment
break between two East Asian wide characters. We apply that rule at build time, outside the elements
``pre``, ``code``, ``script``, ``style``, ``textarea`` and ``svg``, where whitespace is content.
"""

from __future__ import annotations

import re

# Hiragana, katakana, CJK ideographs, CJK punctuation and full-width forms.
_WIDE = r"\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff01-\uff60\uffe0-\uffe6"
_BREAK_BETWEEN_WIDE = re.compile(rf"(?<=[{_WIDE}])[ \t]*\n[ \t]*(?=[{_WIDE}])")
_VERBATIM = re.compile(r"<(pre|code|script|style|textarea|svg)\b.*?</\1>", re.S | re.I)


def join_wide_line_breaks(html: str) -> str:
    """Remove a line break (and the indentation around it) between two wide characters, outside verbatim tags."""
    pieces: list[str] = []
    position = 0
    for verbatim in _VERBATIM.finditer(html):
        pieces.append(_BREAK_BETWEEN_WIDE.sub("", html[position : verbatim.start()]))
        pieces.append(verbatim.group(0))
        position = verbatim.end()
    pieces.append(_BREAK_BETWEEN_WIDE.sub("", html[position:]))
    return "".join(pieces)
