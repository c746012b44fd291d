"""Publishing: the workflow runs the whole test suite before it deploys the strict build to GitHub Pages, and
mkdocs.yml carries what a published site needs (site_url, edit links, the 404 override, the sitemap)."""

from __future__ import annotations

from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOW = ROOT / ".github" / "workflows" / "pages.yml"


def _workflow() -> dict:
    return yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))


def _runs(job: dict) -> list[str]:
    return [step.get("run", "") for step in job.get("steps", [])]


def test_workflow_tests_then_deploys_the_strict_build():
    workflow = _workflow()
    triggers = workflow[True] if True in workflow else workflow["on"]  # YAML 1.1 reads the key "on" as True
    assert triggers["push"]["branches"] == ["main"]
    build, deploy = workflow["jobs"]["test-and-build"], workflow["jobs"]["deploy"]
    runs = _runs(build)
    ci = next(i for i, run in enumerate(runs) if "bash .ci/run" in run)
    strict = next(i for i, run in enumerate(runs) if "mkdocs build --strict -d site" in run)
    assert ci < strict, "the site must be built only after the tests passed"
    uses = [step.get("uses", "") for step in build["steps"]]
    assert any(u.startswith("actions/upload-pages-artifact@") for u in uses)
    assert deploy["needs"] == "test-and-build"
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert any(step.get("uses", "").startswith("actions/deploy-pages@") for step in deploy["steps"])
    assert "refs/heads/main" in deploy["if"]


def test_ci_script_runs_the_test_script():
    assert "bash scripts/test.sh" in (ROOT / ".ci" / "run").read_text(encoding="utf-8")


def test_mkdocs_config_for_publishing():
    config = yaml.safe_load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    assert config["site_url"].startswith("https://") and config["site_url"].endswith("/")
    assert config["repo_url"].startswith("https://github.com/")
    assert config["edit_uri"].startswith("edit/main/docs")
    assert "content.action.edit" in config["theme"]["features"]
    custom_dir = ROOT / config["theme"]["custom_dir"]
    assert "ページが見つかりません" in (custom_dir / "404.html").read_text(encoding="utf-8")
