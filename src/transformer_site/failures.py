"""What went wrong in a build: every failure is an error at every log level, and the build fails at its end.

MkDocs' ``--strict`` counts only the warnings it is allowed to print, so with ``-q`` a warning neither shows
nor fails the build. Every failure of ours — a failing executed block, a missing snippet, an output or figure
check, a checked number, a question, the notebook export — is therefore reported to the build's
:class:`Failures`: logged as an ERROR (``docs/page.md:line: …``, shown with ``-q`` as without) and counted, and
the pipeline's last step after the build raises when any was reported, with ``--strict`` or without.

Under ``mkdocs serve`` the same list, together with every error and warning the builder logged during the build
(:meth:`Failures.logged`), makes the error page that the author's open browser tab shows (:func:`error_page`).
"""

from __future__ import annotations

import html
import logging

log = logging.getLogger("mkdocs.plugins.transformer_site")

BUILDER_LOGGER = "mkdocs"  # whose warnings and errors the serve error page lists
_COLLECTOR_NAME = "transformer_site.failures"

TEXT = {
    "title": "ビルドが失敗しました",
    "advice": "次の問題を直して保存すると、このページは自動で再読み込みされます (端末にも同じ内容が出ています)。",
}
"""The reader-facing words of the error page (the author's browser tab under ``mkdocs serve``)."""


class BuildError(Exception):
    """A problem that stops the build at once (a page that cannot be read); the message names page and line."""


class Failures:
    """The failures of one build: each reported one is logged as an error and fails the build at its end."""

    def __init__(self) -> None:
        self._reported: list[str] = []
        self._collector = _Collector()

    def report(self, message: str) -> None:
        """Log ``message`` as an error and remember it: the build will fail."""
        log.error(message)
        self._reported.append(message)

    def reported(self) -> list[str]:
        return list(self._reported)

    def start_collecting(self) -> None:
        """Collect every warning and error the builder logs from now on (replacing an earlier build's collector)."""
        logger = logging.getLogger(BUILDER_LOGGER)
        for handler in [h for h in logger.handlers if getattr(h, "name", None) == _COLLECTOR_NAME]:
            logger.removeHandler(handler)
        logger.addHandler(self._collector)

    def logged(self) -> list[str]:
        return list(self._collector.records)


class _Collector(logging.Handler):
    """Every warning and error the builder's loggers emit during a build (for the serve error page)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.name = _COLLECTOR_NAME
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(f"{record.levelname}: {record.getMessage()}")


def error_page(messages: list[str], refresh: bool = False) -> str:
    """A self-contained page (no stylesheet: the failed build wrote none) listing what is wrong.

    ``mkdocs serve`` adds its live-reload script before ``</body>`` of every page it serves from the site, so
    the tab reloads by itself once a rebuild succeeds. ``refresh``: reload every 5 s instead, for the page
    serve answers a missing URL with (``404.html``), which gets no script.
    """
    items = "\n".join(f"<li><pre>{html.escape(message)}</pre></li>" for message in messages)
    reload = '<meta http-equiv="refresh" content="5">\n' if refresh else ""
    return f"""<!doctype html>
<html lang="ja">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
{reload}
<title>{TEXT["title"]}</title>
<style>
body {{ font-family: system-ui, sans-serif; margin: 2rem auto; max-width: 60rem; padding: 0 1rem; color: #222; }}
h1 {{ color: #b00020; font-size: 1.5rem; }}
li {{ margin: 0 0 1rem; }}
pre {{ white-space: pre-wrap; overflow-wrap: anywhere; background: #fbeaea; padding: .75rem; margin: 0; }}
@media (prefers-color-scheme: dark) {{
  body {{ background: #1e1e1e; color: #eee; }} h1 {{ color: #ff8a80; }} pre {{ background: #3a2020; }}
}}
</style>
</head>
<body>
<h1>{TEXT["title"]}</h1>
<p>{TEXT["advice"]}</p>
<ol>
{items}
</ol>
</body>
</html>
"""
