"""The site's MkDocs hooks (``hooks:`` in mkdocs.yml), one file per concern, as Material keeps its own.

MkDocs loads each file by its path and runs the events of all of them in the order of ``hooks:``, unless an
event says otherwise with ``event_priority``:

- ``fresh_build``: the environment checked, the project's modules forgotten before each build (first);
- ``executed_blocks``: every executed fence found, named and checked on its page; the run's reports;
- ``checked_numbers``: every ``{{ literal = expression }}`` verified and replaced by its literal;
- ``exercises``: every ``!!! exercise`` question checked against ``src`` and shown as a question (after
  ``checked_numbers``, whose lines it keeps);
- ``publishing``: the build date pinned to the last commit, source maps dropped, a failed build's site emptied;
- ``build_failures``: any failure reported during the build fails it at the end, and under ``mkdocs serve``
  the browser shows an error page instead of waiting;
- ``glossary``: the 用語集 page from ``transformer_pages.reference.glossary``, and on every other page the first use
  of each term wrapped so that Material's tooltip shows its definition on hover, focus and tap;
- ``lab_notebooks``: lab pages (Jupytext notebooks in ``docs/``) executed by the site, cached on what they
  import and cite, and handed to mkdocs-jupyter as executed notebooks.

The hook files keep no state of their own: MkDocs loads them anew with every configuration (each rebuild of
``mkdocs serve``), so the state of a build lives in ``transformer_site`` modules, imported inside the events
(after ``fresh_build`` has made them fresh).
"""
