"""A panel's data leaves its page for a file named by its content (transformer_site.publishing.panel_data), and the
files of the built site are src's data, each reached from its page."""

from __future__ import annotations

import json
import posixpath
import re
from pathlib import Path

import pytest

from transformer_site.panels import generation
from transformer_site.panels import html as sp
from transformer_site.panels.kernel_data import decoder_data, kernel_data
from transformer_site.publishing import panel_data

_EMPTIED = re.compile(r'<template class="(tm-[a-z]+-data)" data-search-exclude data-src="([^"]+)"></template>')


def _page(*templates: str) -> str:
    return '<div data-tm-panel="x">' + "".join(templates) + "</div>"


def test_each_template_becomes_a_file_named_by_its_content(tmp_path: Path) -> None:
    data = {"a": "</template><b>&", "n": [1, 2.5]}
    page = _page(sp._template("tm-panel-data", data), sp._template("tm-kernel-data", {"k": 1}))
    out = panel_data.move_out(page, "tryit/", tmp_path)
    found = _EMPTIED.findall(out)
    assert [css for css, _ in found] == ["tm-panel-data", "tm-kernel-data"]
    assert "&lt;" not in out and "tm-panel-data\" data-search-exclude>" not in out
    for (_, src), value in zip(found, [data, {"k": 1}], strict=True):
        assert src.startswith("../assets/panel-data/")
        path = tmp_path / posixpath.normpath(posixpath.join("tryit", src))
        text = path.read_text(encoding="utf-8")
        assert json.loads(text) == value and path.name == panel_data.file_name(text)


@pytest.mark.parametrize(
    ("page_url", "prefix"),
    [("", "assets/panel-data/"), ("tryit/", "../assets/panel-data/"), ("chapter/02-x/", "../../assets/panel-data/")],
)
def test_the_address_is_relative_to_the_page(tmp_path: Path, page_url: str, prefix: str) -> None:
    out = panel_data.move_out(_page(sp._template("tm-panel-data", {"a": 1})), page_url, tmp_path)
    assert _EMPTIED.search(out).group(2).startswith(prefix)


def test_the_same_data_on_two_pages_is_one_file(tmp_path: Path) -> None:
    template = sp._template("tm-kernel-data", {"w": [0.5]})
    first = panel_data.move_out(_page(template), "a/", tmp_path)
    second = panel_data.move_out(_page(template), "b/", tmp_path)
    assert _EMPTIED.search(first).group(2) == _EMPTIED.search(second).group(2)
    assert len(list((tmp_path / panel_data.FOLDER).iterdir())) == 1


def test_a_template_that_holds_no_json_is_refused_with_its_page(tmp_path: Path) -> None:
    page = _page('<template class="tm-panel-data" data-search-exclude>{"a": </template>')
    with pytest.raises(ValueError, match=r'page tryit/: <template class="tm-panel-data"> holds no JSON'):
        panel_data.move_out(page, "tryit/", tmp_path)
    assert not (tmp_path / panel_data.FOLDER).exists()


def _files_of(site: Path, page_url: str) -> list[tuple[str, object]]:
    text = (site / page_url / "index.html").read_text(encoding="utf-8")
    assert not re.search(r'<template class="tm-[a-z]+-data" data-search-exclude>', text), "data left in the page"
    files = []
    for css_class, src in _EMPTIED.findall(text):
        path = site / posixpath.normpath(posixpath.join(page_url, src))
        files.append((css_class, json.loads(path.read_text(encoding="utf-8"))))
    return files


def _plain(data: dict) -> object:
    return json.loads(sp.to_json(data))


@pytest.mark.slow  # the SDPA panel's data holds the gradient measured at 64 sizes of d_k, twice each
def test_the_built_pages_reach_src_data_through_their_files(shared_site: Path) -> None:
    tryit = _files_of(shared_site, "tryit/")
    expected = [
        ("tm-panel-data", _plain(sp.sdpa_data())),
        ("tm-panel-data", _plain(sp.pe_data())), ("tm-kernel-data", _plain(kernel_data())),
        ("tm-panel-data", _plain(sp.explorer_data())), ("tm-kernel-data", _plain(kernel_data())),
        ("tm-panel-data", _plain(generation.generation_data())), ("tm-decoder-data", _plain(decoder_data())),
    ]  # fmt: skip
    assert tryit == expected
    assert _files_of(shared_site, "chapter/02-attention-kinds/") == expected[:1]
    assert _files_of(shared_site, "chapter/04-positional-encoding/") == expected[1:3]
