"""The textbook chapter (``docs/chapter/``): one module per page, ``NN-name.md`` → ``name.py``."""
