"""確認問題: the ``!!! exercise`` blocks of a page, checked against ``src`` and shown as questions.

``syntax`` reads a block with its lines and says what is wrong with it; ``render`` replaces each block of a page
by its markup (``html``) after checking its answer.
"""
