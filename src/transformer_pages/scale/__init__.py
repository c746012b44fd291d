"""The scale notes (``docs/scale/``): one module per page, ``NN-name.md`` → ``name.py``."""
