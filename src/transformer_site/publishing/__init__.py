"""What is published: the same bytes for the same commit (``reproducible``), no stray spaces where Japanese source
lines wrap (``linebreaks``), tags named in docstrings shown as text on the API page (``api_docs``), formulas
typeset by KaTeX when the site is built (``formulas``), the panels' data in files of their own, fetched when a
panel starts (``panel_data``)."""
