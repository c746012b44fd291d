"""Executed blocks: the ``python exec="on"`` fences of a page, run isolated, cached on what they mean, checked.

``blocks`` finds, names and runs them (markdown-exec's fence with the site's runner); ``isolation`` keeps what
they may not change; ``output_checks`` refuses what may not be published; ``cache`` keys an output on the code
and on the ``src`` it imports.
"""
