"""The page model: each page read once (``model.Page``), with the line of everything found in it.

``fences``, ``tokens`` (checked numbers, claims, markers, citations) and ``exercises`` (question blocks) are the
readers the model is made of; ``model`` holds the page and the site's pages as the builder serves them
(``SiteMap``, ``SiteFiles``).
"""

from .model import Page, SiteFiles, SiteMap

__all__ = ["Page", "SiteFiles", "SiteMap"]
