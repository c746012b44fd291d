"""A notebook downloaded from the built site runs in a fresh virtual environment outside the repository.

The run's one build of the site (``shared_site``, or ``SITE_DIR``) is served on 127.0.0.1 as a local stand-in
for the published site: the notebook is fetched over HTTP, its site URL (``site_url`` in mkdocs.yml) pointed at
the local server, and executed with nbclient by the Python of a new venv in a temporary folder that holds nothing
of the project. The project reaches that venv only the way the setup cell installs it: ``%pip install`` of the
wheel the site serves (its other requirements, numpy and matplotlib, come from the package index pip is
configured with).
Also: the install command of the API page and the README names the wheel the site serves.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import re
import subprocess
import sys
import textwrap
import threading
import urllib.request
from pathlib import Path

import pytest

pytestmark = pytest.mark.build

ROOT = Path(__file__).resolve().parents[2]
NOTEBOOK = "notes/03-attention.ipynb"


def _site_url() -> str:
    return re.search(r"^site_url:\s*(\S+)", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"), re.MULTILINE)[1]


@pytest.fixture(scope="module")
def built_site(shared_site: Path) -> Path:
    """The one strict build of the run (tests/conftest.py: ``shared_site``; ``SITE_DIR`` names a built one)."""
    return shared_site


@pytest.fixture(scope="module")
def served(built_site: Path):
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(built_site)))
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{httpd.server_address[1]}/"
    httpd.shutdown()
    httpd.server_close()


def test_the_install_command_of_the_api_page_and_the_readme_names_the_served_wheel(built_site: Path):
    wheels = sorted((built_site / "wheels").glob("*.whl"))
    assert len(wheels) == 1, f"the site serves {len(wheels)} stable wheels"
    url = _site_url() + f"wheels/{wheels[0].name}"
    for source in (ROOT / "docs/reference/api.md", ROOT / "README.md"):
        text = source.read_text(encoding="utf-8")
        assert f'pip install "transformer-anatomy[figures] @ {url}"' in text, f"{source.name} names another wheel"
    pinned = sorted((built_site / "wheels").glob("*/*.whl"))
    assert len(pinned) == 1 and pinned[0].read_bytes() == wheels[0].read_bytes()


def test_a_downloaded_notebook_runs_in_a_fresh_venv_outside_the_repository(served: str, tmp_path: Path):
    with urllib.request.urlopen(served + NOTEBOOK) as response:
        text = response.read().decode("utf-8")
    assert _site_url() in text, "the notebook does not name the site it came from"
    notebook = json.loads(text.replace(_site_url(), served))  # the local server stands in for the published site
    setup = notebook["cells"][1]
    assert setup["metadata"]["tags"] == ["setup"] and "%pip install" in "".join(setup["source"])
    shown_before = [c for c in notebook["cells"] if c["cell_type"] == "code" and c.get("outputs")]
    assert shown_before, "the notebook carries no output of the build's run"

    work = tmp_path / "reader"
    work.mkdir()
    (work / "page.ipynb").write_text(json.dumps(notebook, ensure_ascii=False), encoding="utf-8")
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
    python = venv / "bin" / "python"
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV", "PYTHONHOME")}
    env["PATH"] = f"{venv / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    install = subprocess.run(
        [str(python), "-m", "pip", "install", "-q", "nbclient", "ipykernel"],
        cwd=work, env=env, capture_output=True, text=True, timeout=900,
    )  # fmt: skip
    assert install.returncode == 0, install.stderr[-2000:]
    absent = subprocess.run([str(python), "-c", "import transformer_math"], cwd=work, env=env, capture_output=True)
    assert absent.returncode != 0, "the fresh venv already reaches the project"

    runner = textwrap.dedent(
        """
        import sys, nbformat
        from nbclient import NotebookClient
        notebook = nbformat.read("page.ipynb", as_version=4)
        NotebookClient(notebook, timeout=900, kernel_name="python3", resources={"metadata": {"path": "."}}).execute()
        probe = nbformat.v4.new_code_cell("import transformer_math; print(transformer_math.__file__)")
        notebook.cells.append(probe)
        NotebookClient(notebook, timeout=120, kernel_name="python3", resources={"metadata": {"path": "."}}).execute()
        print("MODULE", probe.outputs[0]["text"].strip())
        print("DISPLAYED", sum(1 for c in notebook.cells if c.cell_type == "code"
                               for o in c.outputs if o.output_type == "display_data"))
        """
    )
    run = subprocess.run(
        [str(python), "-c", runner], cwd=work, env=env, capture_output=True, text=True, timeout=1800
    )  # fmt: skip
    assert run.returncode == 0, (run.stdout + run.stderr)[-4000:]
    module = re.search(r"^MODULE (.+)$", run.stdout, re.MULTILINE)[1]
    assert str(venv) in module and str(ROOT) not in module, f"transformer_math came from {module}"
    assert int(re.search(r"^DISPLAYED (\d+)$", run.stdout, re.MULTILINE)[1]) >= len(shown_before)
