"""Hook: lab notebooks (``transformer_site.notebooks.lab``) — executed and cached by the site, rendered by
mkdocs-jupyter.

- ``on_config``: mkdocs-jupyter must be configured as the site relies on (``execute: false``,
  ``allow_errors: false``, ``include: ["*.ipynb"]``, Markdown pages ignored); its own cache folder is resolved
  against the project's folder (not the working directory) and switched off with ``TRANSFORMER_FIGURE_CACHE=off``.
- ``on_pre_build``: a fresh record of this build's labs (after ``fresh_build`` has reloaded the modules).
- ``on_files`` (priority 100, before mkdocs-jupyter's): every lab page executed or taken from the cache; its
  ``File`` now reads the executed ``.ipynb`` (mkdocs-jupyter takes it); the readers' notebook is added beside the
  page. A failing cell or number is reported (the build fails naming the page, the cell and the line) and the
  page stays plain Markdown.
- ``on_nav``: mkdocs-jupyter wraps each lab's ``File`` in a ``NotebookFile`` that does not carry the changed
  ``abs_src_path`` over (``File.abs_src_path`` is a cached property, computed anew on the wrapper): it is set on
  the wrapper too.
- ``on_pre_page`` (after mkdocs-jupyter's): the page's Markdown is empty for the other hooks (the notebook's
  JSON is not Markdown; its numbers were checked when it was executed).
- ``on_page_content``: links, CDN scripts, pruned CSS, table of contents, download button.
- ``on_post_build``: what was executed and what came from the cache, CPU times, CSS before/after.
"""

from __future__ import annotations

import logging
import types
from pathlib import Path

from mkdocs.exceptions import PluginError
from mkdocs.plugins import event_priority

log = logging.getLogger("mkdocs.plugins.transformer_site.notebooks.lab")

REQUIRED = {"execute": False, "allow_errors": False, "include": ["*.ipynb"]}


def _jupyter_plugin(config):
    plugin = config.plugins.get("mkdocs-jupyter")
    if plugin is None:
        raise PluginError("lab notebooks: the mkdocs-jupyter plugin is not in mkdocs.yml's plugins")
    return plugin


def on_config(config):
    from transformer_site.execution import cache as figure_cache

    plugin = _jupyter_plugin(config)
    wrong = [f"{k}: {plugin.config[k]!r} (must be {v!r})" for k, v in REQUIRED.items() if plugin.config[k] != v]
    if "*.md" not in plugin.config["ignore"]:
        wrong.append(f"ignore: {plugin.config['ignore']!r} (must list '*.md': the site's labs reach it as .ipynb)")
    if wrong:
        raise PluginError("lab notebooks: mkdocs-jupyter in mkdocs.yml: " + "; ".join(wrong))
    cache_dir = figure_cache.cache_dir_from_env(Path(config.config_file_path).parent)
    if cache_dir is None:
        plugin.config["cache"] = False
    elif not Path(plugin.config["cache_dir"]).is_absolute():
        plugin.config["cache_dir"] = str(Path(cache_dir) / "mkdocs-jupyter")
    return config


def on_pre_build(config):
    from transformer_site.execution import cache as figure_cache
    from transformer_site.notebooks import lab as lab_notebooks

    project = Path(config.config_file_path).parent  # after fresh_build: this build's own module state
    lab_notebooks.start_build(project, figure_cache.cache_dir_from_env(project))


@event_priority(100)  # before mkdocs-jupyter's on_files, which picks the .ipynb up
def on_files(files, config):
    from transformer_site.notebooks import lab as lab_notebooks

    return lab_notebooks.replace_lab_files(files, config)


def on_nav(nav, config, files):
    """After every on_files: mkdocs-jupyter's wrapper of a lab's File reads the executed notebook too."""
    from transformer_site.notebooks import lab as lab_notebooks

    lab_notebooks.point_wrappers_at_notebooks(files)
    return nav


@event_priority(-100)  # after mkdocs-jupyter's on_pre_page, which replaced the page's render
def on_pre_page(page, config, files):
    from transformer_site.notebooks import lab as lab_notebooks

    if lab_notebooks.lab_of(page.file.src_uri) is not None:

        def read_source(self, config):
            self.markdown, self.meta = "", {}

        page.read_source = types.MethodType(read_source, page)
    return page


def on_page_content(html, page, config, files):
    from transformer_site.notebooks import lab as lab_notebooks

    return lab_notebooks.finish_page(html, page, config, files)


def on_post_build(config):
    from transformer_site.notebooks import lab as lab_notebooks

    for line in lab_notebooks.report_lines():
        log.info(line)
    lab_notebooks.end_build()


def on_build_error(error):
    from transformer_site.notebooks import lab as lab_notebooks

    lab_notebooks.end_build()
