"""The CSS mkdocs-jupyter inlines into a notebook page, pruned to what can apply to that page.

mkdocs-jupyter 0.26 puts JupyterLab's whole stylesheet (about 575 KB) and its theme (10 KB) into every notebook
page as ``<style>`` elements, and no option of it leaves them out. Most of it styles JupyterLab's menus, dialogs
and widgets, which a static page never has. :func:`prune` keeps a rule only if one of its selectors matches an
element of the page, and a custom property (``--jp-…``) only if a kept declaration uses it (transitively):

- the stylesheets are parsed with tinycss2 and the selectors matched with soupsieve (Beautiful Soup's CSS
  engine) against the page's own HTML, inside an ``<html><body>`` with Material's ``data-md-color-scheme``
  ignored, so the rules for Material's dark palette stay;
- states no static page can be matched in ahead of time (``:hover``, ``:focus``, ``::before``, …) are dropped
  from a selector before matching, so the rule stays when its element is there; a selector soupsieve cannot
  read is kept;
- ``@media`` and ``@supports`` keep their matching rules; other at-rules (``@font-face``, ``@keyframes``) stay.

The result is cached on the page's HTML and this module's source (pruning takes about a second).
"""

from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass
from pathlib import Path

_STYLE = re.compile(r"<style[^>]*>(.*?)</style>\s*", re.DOTALL)
_PSEUDO = re.compile(r"::?-?[A-Za-z][\w-]*(?:\((?:[^()]|\([^()]*\))*\))?")
_STRUCTURAL = (":not", ":is", ":where", ":has", ":root", ":empty", ":first-child", ":last-child", ":only-child",
               ":nth-child", ":nth-last-child", ":nth-of-type", ":first-of-type", ":last-of-type")  # fmt: skip
_CLASS = re.compile(r"\.((?:[\w-]|\\.)+)")
_MATERIAL_SCHEME = re.compile(r"\[data-md-color-[\w-]*(?:[~|^$*]?=[^\]]*)?\]")
_ARGUMENTS = re.compile(r"\([^()]*\)")
_CUSTOM = re.compile(r"(--[\w-]+)\s*:")
_VAR = re.compile(r"var\(\s*(--[\w-]+)")


@dataclass(frozen=True)
class Pruned:
    content: str  # the page's HTML with one pruned <style> at the top instead of mkdocs-jupyter's
    css_before: int  # bytes of CSS mkdocs-jupyter inlined
    css_after: int  # bytes kept


def styles(content: str) -> list[str]:
    return [m[1] for m in _STYLE.finditer(content)]


class _Matcher:
    def __init__(self, body_html: str) -> None:
        from bs4 import BeautifulSoup

        self.soup = BeautifulSoup(f"<html><body>{body_html}</body></html>", "html.parser")
        self.classes = {c for el in self.soup.find_all(class_=True) for c in el.get("class", [])}
        self.memo: dict[str, bool] = {}

    def _possible(self, selector: str) -> bool:
        """Every class the selector requires (outside :not(…) and other arguments) occurs on the page."""
        outer = re.sub(r"\[[^\]]*\]", "", selector)
        while (stripped := _ARGUMENTS.sub("", outer)) != outer:
            outer = stripped
        return all(c.replace("\\", "") in self.classes for c in _CLASS.findall(outer))

    def matches(self, selector_list: str) -> bool:
        for part in _split_selectors(selector_list):
            selector = _MATERIAL_SCHEME.sub("", part)
            selector = _PSEUDO.sub(lambda m: m[0] if m[0].split("(")[0] in _STRUCTURAL else "", selector).strip()
            selector = re.sub(r"(^|[\s>+~])(?=$|[\s>+~])", r"\1*", selector) or "*"
            if not self._possible(selector):
                continue
            if selector not in self.memo:
                try:
                    self.memo[selector] = self.soup.select_one(selector) is not None
                except Exception:  # a selector soupsieve cannot read: keep the rule
                    self.memo[selector] = True
            if self.memo[selector]:
                return True
        return False


def _split_selectors(selector_list: str) -> list[str]:
    """Split at top-level commas (not those inside :is(…) or attribute values)."""
    parts, depth, current, quote = [], 0, [], None
    for ch in selector_list:
        if quote:
            quote = None if ch == quote else quote
        elif ch in "\"'":
            quote = ch
        elif ch in "([":
            depth += 1
        elif ch in ")]":
            depth -= 1
        elif ch == "," and depth == 0:
            parts.append("".join(current))
            current = []
            continue
        current.append(ch)
    parts.append("".join(current))
    return [p.strip() for p in parts if p.strip()]


def _prune_rules(rules, matcher: _Matcher) -> list:
    import tinycss2

    kept = []
    for rule in rules:
        if rule.type == "qualified-rule":
            if matcher.matches(tinycss2.serialize(rule.prelude)):
                kept.append(("rule", tinycss2.serialize(rule.prelude).strip(), tinycss2.serialize(rule.content)))
        elif rule.type == "at-rule":
            head = "@" + rule.at_keyword + tinycss2.serialize(rule.prelude)
            if rule.lower_at_keyword in ("media", "supports") and rule.content is not None:
                inner = _prune_rules(tinycss2.parse_rule_list(rule.content, skip_whitespace=True,
                                                              skip_comments=True), matcher)  # fmt: skip
                if inner:
                    kept.append(("block", head.strip(), inner))
            elif rule.lower_at_keyword != "charset":
                kept.append(("at", tinycss2.serialize([rule]), None))
    return kept


def _declarations(kept) -> list[str]:
    out = []
    for kind, _, body in kept:
        if kind == "rule":
            out.append(body)
        elif kind == "block":
            out += _declarations(body)
    return out


def _used_properties(kept) -> set[str]:
    """Custom properties some kept declaration reads, following var() through the properties' own values."""
    import tinycss2

    definitions: dict[str, list[str]] = {}
    plain_uses: set[str] = set()
    for body in _declarations(kept):
        for decl in tinycss2.parse_blocks_contents(body, skip_whitespace=True, skip_comments=True):
            if decl.type != "declaration":
                continue
            value = tinycss2.serialize(decl.value)
            if decl.name.startswith("--"):
                definitions.setdefault(decl.name, []).append(value)
            else:
                plain_uses.update(_VAR.findall(value))
    used, todo = set(), list(plain_uses)
    while todo:
        name = todo.pop()
        if name in used:
            continue
        used.add(name)
        for value in definitions.get(name, []):
            todo.extend(_VAR.findall(value))
    return used


def _serialise(kept, used: set[str]) -> str:
    import tinycss2

    parts = []
    for kind, head, body in kept:
        if kind == "rule":
            decls = [d for d in tinycss2.parse_blocks_contents(body, skip_whitespace=True, skip_comments=True)
                     if d.type == "declaration" and (not d.name.startswith("--") or d.name in used)]  # fmt: skip
            if decls:
                text = ";".join(f"{d.name}:{tinycss2.serialize(d.value).strip()}"
                                + ("!important" if d.important else "") for d in decls)  # fmt: skip
                parts.append(f"{head}{{{text}}}")
        elif kind == "block":
            inner = _serialise(body, used)
            if inner:
                parts.append(f"{head}{{{inner}}}")
        else:
            parts.append(head)
    return "".join(parts)


def prune(content: str) -> Pruned:
    """``content`` (a page's HTML from mkdocs-jupyter) with its inlined CSS pruned into one ``<style>``."""
    import tinycss2

    sheets = styles(content)
    body = _STYLE.sub("", content)
    matcher = _Matcher(body)
    kept = []
    for sheet in sheets:
        kept += _prune_rules(tinycss2.parse_stylesheet(sheet, skip_whitespace=True, skip_comments=True), matcher)
    css = _serialise(kept, _used_properties(kept))
    before = sum(len(s.encode()) for s in sheets)
    return Pruned(f"<style data-search-exclude>{css}</style>\n{body}", before, len(css.encode()))


def cached_prune(content: str, cache_dir: Path | None) -> Pruned:
    """:func:`prune`, stored in ``cache_dir`` keyed on the content and this module's source."""
    import json

    if cache_dir is None:
        return prune(content)
    h = hashlib.sha256(Path(__file__).read_bytes())
    h.update(content.encode())
    path = cache_dir / f"css-{h.hexdigest()}.json"
    if path.is_file():
        data = json.loads(path.read_text(encoding="utf-8"))
        return Pruned(data["content"], data["before"], data["after"])
    result = prune(content)
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".tmp")
    partial.write_text(json.dumps({"content": result.content, "before": result.css_before,
                                   "after": result.css_after}), encoding="utf-8")  # fmt: skip
    partial.replace(path)
    return result
