"""The MkDocs side of the site: executed blocks, checked numbers, figure cache, notebook export, search, publishing.

``PROJECT_PACKAGES`` is the one list of the project's own packages: the build forgets them before each build
(``mkdocs serve`` rebuilds in one interpreter), the figure cache follows imports inside them, and executed code
may not change their public state.
"""

PROJECT_PACKAGES = ("transformer_math", "transformer_pages", "transformer_figures", "transformer_site")
# What executed blocks and checked numbers read (and so may not change): the layers below the site.
LIBRARY_PACKAGES = tuple(package for package in PROJECT_PACKAGES if package != "transformer_site")
