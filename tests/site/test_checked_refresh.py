"""Refresh rewrites only stale literals, in their own format; every other byte stays."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from transformer_math import preset_trace
from transformer_site.checked.refresh import refresh_paths, refresh_text

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "checked_numbers_page.md"
LIVE = f"{preset_trace(1).scores[0, 2, 3]:+.3f}"  # independent route: an f-string of the trace


def test_refresh_rewrites_only_the_stale_literal(tmp_path):
    page = tmp_path / "page.md"
    shutil.copy(FIXTURE, page)
    before = page.read_bytes()
    stale = b"{{ +3.524 = s1.scores[0, 2, 3] }}"
    assert before.count(stale) == 1

    changes, errors = refresh_paths([page], root=tmp_path)

    assert errors == []
    assert [str(c) for c in changes] == [f"page.md:9: +3.524 → {LIVE}"]
    expected = before.replace(stale, stale.replace(b"+3.524", LIVE.encode()))
    assert page.read_bytes() == expected
    assert refresh_paths([page], root=tmp_path) == ([], [])  # a second run finds nothing


def test_refresh_keeps_each_format_and_crlf():
    text = "a {{ −9.9 = s1.ffn_out[0, 3] }}\r\nb {{ 1,000 = counting.bert_params(configs.BERT_BASE).total }}\r\n"
    new_text, changes, errors = refresh_text(text, "p.md")
    assert errors == []
    assert [c.new for c in changes] == ["−0.2", "109,482,240"]
    assert new_text == text.replace("−9.9", "−0.2").replace("1,000", "109,482,240")


def test_refresh_leaves_broken_expressions_and_reports_them():
    text = "x {{ 1.0 = s9.scores[0] }} y {{ 0.5 = s1.attn[0, 0, 3] }}\n"
    new_text, changes, errors = refresh_text(text, "p.md")
    assert len(changes) == 1 and changes[0].old == "0.5"
    assert len(errors) == 1 and errors[0].startswith("p.md:1: unknown name 's9'")
    assert "{{ 1.0 = s9.scores[0] }}" in new_text


@pytest.mark.slow  # runs the command line in a subprocess
def test_refresh_cli_prints_old_and_new(tmp_path):
    page = tmp_path / "page.md"
    shutil.copy(FIXTURE, page)
    result = subprocess.run(
        [sys.executable, "-m", "transformer_site.checked", "refresh", "page.md"],
        capture_output=True, text=True, cwd=tmp_path,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert result.stdout == f"page.md:9: +3.524 → {LIVE}\n"
