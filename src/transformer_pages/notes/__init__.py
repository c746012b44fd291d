"""The math notes (``docs/notes/``): one module per page, ``NN-name.md`` → ``name.py``."""
