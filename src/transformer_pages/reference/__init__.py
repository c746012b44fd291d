"""The reference pages (``docs/reference/``) whose content is page data: ``name.md`` → ``name.py``."""
