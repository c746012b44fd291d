"""A local preview may be built without torch; every other build needs it (issue: the README's serve command)."""

from __future__ import annotations

import re

import pytest

from transformer_site import torch_crosscheck
from transformer_site.execution import cache as figure_cache


def test_a_full_build_without_torch_fails_and_names_the_way_out(monkeypatch):
    monkeypatch.setattr(torch_crosscheck, "torch_available", lambda: False)
    monkeypatch.delenv(torch_crosscheck.PREVIEW_ENV, raising=False)
    with pytest.raises(torch_crosscheck.TorchMissingError, match="TRANSFORMER_PREVIEW=1"):
        torch_crosscheck.require_torch_unless_preview()
    monkeypatch.setenv(torch_crosscheck.PREVIEW_ENV, "0")
    with pytest.raises(torch_crosscheck.TorchMissingError, match=re.escape("download.pytorch.org/whl/cpu")):
        torch_crosscheck.require_torch_unless_preview()


def test_a_preview_without_torch_shows_the_notice_instead(monkeypatch):
    monkeypatch.setattr(torch_crosscheck, "torch_available", lambda: False)
    monkeypatch.setenv(torch_crosscheck.PREVIEW_ENV, "1")
    assert torch_crosscheck.require_torch_unless_preview() is False
    notice = torch_crosscheck.preview_notice()
    assert "このプレビューには照合の表がありません" in notice and "公開" in notice


def test_with_torch_the_table_is_measured_even_in_a_preview(monkeypatch):
    monkeypatch.setattr(torch_crosscheck, "torch_available", lambda: True)
    monkeypatch.setenv(torch_crosscheck.PREVIEW_ENV, "1")
    assert torch_crosscheck.require_torch_unless_preview() is True


@pytest.mark.parametrize("value", ["yes", "true", " 1", "2"])
def test_a_garbage_preview_setting_names_the_variable(monkeypatch, value):
    monkeypatch.setenv(torch_crosscheck.PREVIEW_ENV, value)
    with pytest.raises(ValueError, match=re.escape(f"TRANSFORMER_PREVIEW={value!r}")):
        torch_crosscheck.preview_build()


def test_the_figure_cache_keys_on_torch_and_on_preview(monkeypatch):
    """A preview's notice must never be served from the cache to a build with torch or to a full build."""
    monkeypatch.delenv(torch_crosscheck.PREVIEW_ENV, raising=False)
    full = figure_cache._library_versions()
    monkeypatch.setenv(torch_crosscheck.PREVIEW_ENV, "1")
    preview = figure_cache._library_versions()
    assert "torch " in full and full != preview
