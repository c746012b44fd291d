"""What went wrong in this build: every failure is an error at every log level, and the build fails at its end.

MkDocs' ``--strict`` counts only the warnings it is allowed to print, so with ``-q`` a warning neither shows
nor fails the build. Every failure of ours — a failing executed block, a missing snippet, an output or figure
check, a checked number, the notebook export — is therefore reported here: logged as an ERROR
(``docs/page.md:line: …``, shown with ``-q`` as without) and counted, and ``build_failures``' last
``on_post_build`` raises a ``PluginError`` when any was reported, with ``--strict`` or without.

Under ``mkdocs serve`` the same list, together with every error and warning MkDocs logged during the build
(:func:`logged`), makes the error page that the author's open browser tab shows (:func:`error_page`).
"""

from __future__ import annotations

import html
import logging

log = logging.getLogger("mkdocs.plugins.transformer_site")

_reported: list[str] = []


def report(message: str) -> None:
    """Log ``message`` as an error and remember it: the build will fail."""
    log.error(message)
    _reported.append(message)


def reported() -> list[str]:
    return list(_reported)


def reset() -> None:
    _reported.clear()
    _collector.records.clear()


class _Collector(logging.Handler):
    """Every warning and error MkDocs' loggers emit during a build (for the serve error page)."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)
        self.records: list[str] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(f"{record.levelname}: {record.getMessage()}")


_collector = _Collector()
_COLLECTOR_NAME = "transformer_site.failures"


def start_collecting() -> None:
    """Attach the collector to MkDocs' logger (replacing the one of an earlier build of ``mkdocs serve``)."""
    logger = logging.getLogger("mkdocs")
    for handler in [h for h in logger.handlers if getattr(h, "name", None) == _COLLECTOR_NAME]:
        logger.removeHandler(handler)
    _collector.name = _COLLECTOR_NAME
    logger.addHandler(_collector)


def logged() -> list[str]:
    return list(_collector.records)


ERROR_PAGE_TITLE = "ビルドが失敗しました"


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
<title>{ERROR_PAGE_TITLE}</title>
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
<h1>{ERROR_PAGE_TITLE}</h1>
<p>次の問題を直して保存すると、このページは自動で再読み込みされます (端末にも同じ内容が出ています)。</p>
<ol>
{items}
</ol>
</body>
</html>
"""
