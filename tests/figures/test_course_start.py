"""The start buttons of the home page: one link per track to its first page with its length, the main track's
the primary one; a repeated track, no track or a length under a minute is refused with what is wrong."""

from __future__ import annotations

import re

import pytest

from transformer_figures.course_start import StartButton, start_html

BUTTONS = [
    StartButton("notes", "数学ノート", "notes/intuition/", 215),
    StartButton("scale", "規模の見積もり", "scale/01/", 40),
]


def test_one_link_per_track_with_its_length_the_first_primary():
    html = start_html(BUTTONS)
    links = re.findall(r'<a class="([^"]+)" href="([^"]+)" data-track="([^"]+)">(.*?)</a>', html)
    assert [(href, track) for _, href, track, _ in links] == [("notes/intuition/", "notes"), ("scale/01/", "scale")]
    assert "md-button--primary" in links[0][0] and "md-button--primary" not in links[1][0]
    assert "約 215 分" in links[0][3] and "約 40 分" in links[1][3]
    assert html.startswith('<nav class="course-start" aria-label=')


@pytest.mark.parametrize(
    ("buttons", "says"),
    [
        ([], "at least one"),
        ([BUTTONS[0], BUTTONS[0]], "repeat a track"),
        ([StartButton("notes", "数学ノート", "notes/", 0)], "at least 1"),
    ],
)
def test_bad_buttons_are_refused(buttons, says):
    with pytest.raises(ValueError, match=says):
        start_html(buttons)
