"""Notebooks: each page as a Jupyter notebook that runs anywhere, and the lab pages executed by the build.

``export`` makes a page's notebook from its Markdown and snippets; ``setup`` its first cells (the wheel to
install, what else the code needs); ``wheel`` the project's wheel the site serves; ``lab`` executes the lab pages
(Jupytext notebooks) and hands them to mkdocs-jupyter; ``lab_css`` prunes the CSS mkdocs-jupyter inlines.
"""
