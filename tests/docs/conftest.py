"""Doc-value tests: the pages layer's expensive values are computed once before the numbers are checked.

Each checked number is evaluated under its own time limit; a page module whose values take seconds (the training
lab's run) offers ``prepare()``, so that the first number to read them does not pay for them inside that limit.
"""

from __future__ import annotations

import pytest


@pytest.fixture(scope="session", autouse=True)
def _prepared_page_modules():
    from transformer_site.notebooks.lab import prepare_page_modules

    prepare_page_modules()
