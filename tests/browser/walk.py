"""One walk over every page of the shared site in the four views a reader meets (1280 and 390 px, light and
dark), running every registered probe on each page: a probe is a ``page.evaluate`` script (it may return a
promise), optionally with scripts to add to the page first. Tests register probes at import and read the
results, so several checks of every page in every view cost one visit, not one each.

    FRAME = probe("frame", "() => ({...})")
    def test_x(page_walk):
        for path, frame in readings(page_walk, FRAME, 1280, "light"): ...

A probe that changes the page (opens ``<details>``, selects tabs, scrolls: ``reveals=True``) runs after every
probe that reads the page as it loads, so that those still see what a reader sees first.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import NamedTuple

VIEWS: tuple[tuple[int, str], ...] = ((1280, "light"), (1280, "dark"), (390, "light"), (390, "dark"))
HEIGHT = {1280: 900, 390: 844}


class View(NamedTuple):
    path: str  # the page's URL path, "" for the index
    width: int
    scheme: str

    def __str__(self) -> str:
        return f"/{self.path} at {self.width} px, {self.scheme}"


@dataclass(frozen=True)
class Probe:
    name: str
    script: str
    add_scripts: tuple[Path, ...] = ()
    views: tuple[tuple[int, str], ...] = VIEWS  # the (width, scheme) it runs in
    reveals: bool = False  # it opens folded content, selects tabs or scrolls: run it after the others


# Pages visited besides every page of the site: the explorer opened on a signed stage (its diverging tables).
EXTRA_PATHS = ("tryit/?stage=residual1",)
# A page is read once these are gone: the explorer's tables come once its kernel has run, a formula's layout once
# KaTeX has typeset it (katex-init.js runs on Material's document$, which need not come before "load").
_UNSETTLED = '[data-tm-panel="explorer"]:not([data-tm-ready="1"]), .arithmatex:not([data-typeset])'


PROBES: dict[str, Probe] = {}


def probe(name: str, script: str, add_scripts: tuple[Path, ...] = (), views=VIEWS, reveals: bool = False) -> str:
    """Register a probe (a repeated name is an error: two tests would read each other's results)."""
    if name in PROBES and (PROBES[name].script, PROBES[name].reveals) != (script, reveals):
        raise ValueError(f"browser walk: probe {name!r} is registered twice with different scripts")
    unknown = [v for v in views if v not in VIEWS]
    if unknown:
        raise ValueError(f"browser walk: probe {name!r} asks for views {unknown}, not among {VIEWS}")
    PROBES[name] = Probe(name, script, tuple(add_scripts), tuple(views), reveals)
    return name


def in_order() -> list[Probe]:
    """The probes in the order they run on a page: those that only read it first, then those that change it."""
    return sorted(PROBES.values(), key=lambda p: p.reveals)  # sorted() is stable: registration order otherwise


def readings(walked: dict[View, dict[str, object]], name: str, width: int, scheme: str) -> list[tuple[str, object]]:
    """(page path, what probe ``name`` returned) for every page of the walk seen at ``width`` px in ``scheme``."""
    return [(v.path, results[name]) for v, results in walked.items() if (v.width, v.scheme) == (width, scheme)]


def walk(browser, server: str, pages: list[str]) -> dict[View, dict[str, object]]:
    results: dict[View, dict[str, object]] = {}
    errors: list[str] = []
    for width, scheme in VIEWS:
        context = browser.new_context(
            color_scheme=scheme, viewport={"width": width, "height": HEIGHT[width]}, locale="ja-JP"
        )
        page = context.new_page()
        page.on("pageerror", lambda e, w=width, s=scheme: errors.append(f"{w} {s}: {e}"))
        try:
            for path in [*pages, *EXTRA_PATHS]:
                # "load", not "networkidle": a large page can still be parsing (readyState "loading") when the
                # network has been idle for 500 ms, and a probe would read half a page
                page.goto(server + path, wait_until="load")
                page.wait_for_function(f"!document.querySelector({_UNSETTLED!r})")
                view = View(path, width, scheme)
                results[view] = {}
                for p in in_order():
                    if (width, scheme) not in p.views:
                        continue
                    for script in p.add_scripts:
                        page.add_script_tag(path=str(script))
                    results[view][p.name] = page.evaluate(p.script)
        finally:
            context.close()
    assert not errors, f"uncaught exceptions while walking the site: {errors[:5]}"
    return results
