"""Hook: a build with any reported failure fails — with ``-q`` as without — and ``mkdocs serve`` shows it.

- ``on_pre_build``: a new list of failures; every warning and error MkDocs logs from here on is collected too.
- ``on_post_build`` (last): if anything was reported through ``transformer_site.failures`` (a failing block, a
  missing snippet, an output check, a checked number, the notebook export), the build fails with a
  ``PluginError`` — also without ``--strict``, and with ``-q`` (which hides warnings from strict mode).
- ``on_serve``: MkDocs' rebuild loop waits for a build that succeeds, so after a failed rebuild every request
  would wait too (the reader's tab hangs). The server's builder is wrapped: when a rebuild fails, every page
  of the last good build, and any other URL (``404.html``), becomes a page listing the errors — page:line,
  block, snippet — that reloads by itself when a later rebuild succeeds. The terminal shows the same errors.
  This is the site's one use of MkDocs' live-reload server object (``server.builder``); see the README.
"""

from __future__ import annotations

import logging
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

log = logging.getLogger("mkdocs.plugins.transformer_site.build_failures")


@event_priority(90)  # right after fresh_build: the failures of this build, in this build's module
def on_pre_build(config) -> None:
    from transformer_site import failures

    failures.reset()
    failures.start_collecting()


@event_priority(-100)  # after every other post_build: all pages are built, every failure is in
def on_post_build(config) -> None:
    from transformer_site import failures

    reported = failures.reported()
    if reported:
        raise PluginError(
            f"{len(reported)} problem(s) reported above (each names its page and line); nothing from this "
            "build is published"
        )


def on_serve(server, config, builder):
    site_dir = Path(config["site_dir"])
    build = server.builder

    def build_or_show_the_error() -> None:
        pages = sorted(site_dir.rglob("*.html")) if site_dir.is_dir() else []
        try:
            build()
        except Exception as exc:
            messages = _messages(exc)
            write_error_pages(site_dir, [p.relative_to(site_dir) for p in pages], messages)
            log.error(
                f"the build failed; every page of the preview now shows the {len(messages)} message(s) above "
                "and reloads by itself once a rebuild succeeds"
            )

    server.builder = build_or_show_the_error
    return server


def _messages(error: Exception) -> list[str]:
    from transformer_site import failures

    found = [*failures.logged(), f"{type(error).__name__}: {error}"]
    return list(dict.fromkeys(found))  # in order, each once


def write_error_pages(site_dir: Path, pages: list[Path], messages: list[str]) -> None:
    """The error page at every given page path and as ``404.html`` (what serve answers for any other URL)."""
    from transformer_site import failures

    for relative in {*pages, Path("404.html"), Path("index.html")}:
        target = site_dir / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(failures.error_page(messages, refresh=relative == Path("404.html")), encoding="utf-8")
