"""The backward pass and the training lab (``docs/backprop/``): one module per page, ``NN-name.md`` → ``name.py``.

The section is called ``backprop`` (not ``backward``/``training``) so that its name in the citable namespace does
not hide the math layer's ``backward`` and ``training`` modules, which prose cites as well.
"""
