"""The MkDocs side of the site: hooks, checked numbers, figure cache, notebook export."""
