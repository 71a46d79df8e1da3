"""The pull-request action (action.yml): its shell steps, extracted and run with bash and the
environment GitHub sets, on real repositories with a feature branch (both vc modes)."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from conftest import REPO, run_brv
from vc_helpers import git

ACTION = yaml.safe_load((REPO / "action.yml").read_text())
STEPS = {step["id"]: step for step in ACTION["runs"]["steps"]}


def _expand(value: str, inputs: dict[str, str]) -> str:
    """``${{ inputs.x }}`` as GitHub substitutes it (other expressions are not used in env)."""
    return re.sub(r"\$\{\{\s*inputs\.([\w-]+)\s*\}\}", lambda m: inputs[m.group(1)], value)


def run_step(step_id: str, workspace: Path, tmp: Path, *, python: str = sys.executable,
             **given: str) -> tuple[subprocess.CompletedProcess[str], dict[str, str]]:
    """Runs one step as GitHub does: ``bash --noprofile --norc -eo pipefail``, its ``env:``
    with the inputs substituted, GITHUB_ACTION_PATH, GITHUB_OUTPUT, RUNNER_TEMP set."""
    inputs = {name: str(spec.get("default", "")) for name, spec in ACTION["inputs"].items()}
    inputs.update({k.replace("_", "-"): v for k, v in given.items()}, python=python)
    inputs = {k: ("" if "${{" in v else v) for k, v in inputs.items()}  # github.* are unset
    step = STEPS[step_id]
    outputs = tmp / f"github_output_{step_id}"
    outputs.write_text("")
    (tmp / "runner").mkdir(exist_ok=True)
    env = {**os.environ, "GITHUB_ACTION_PATH": str(REPO), "GITHUB_OUTPUT": str(outputs),
           "RUNNER_TEMP": str(tmp / "runner"), "GITHUB_WORKSPACE": str(workspace)}
    env.update({k: _expand(str(v), inputs) for k, v in step.get("env", {}).items()})
    script = tmp / f"{step_id}.sh"
    script.write_text(step["run"])
    proc = subprocess.run(["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                          cwd=workspace, env=env, capture_output=True, text=True, check=False)
    return proc, _outputs(outputs.read_text())


def _outputs(text: str) -> dict[str, str]:
    """Parses GITHUB_OUTPUT: ``k=v`` lines and ``k<<DELIM`` blocks."""
    found, lines = {}, text.splitlines()
    i = 0
    while i < len(lines):
        line = lines[i]
        if "<<" in line and "=" not in line.split("<<")[0]:
            key, delim = line.split("<<", 1)
            end = lines.index(delim, i + 1)
            found[key] = "\n".join(lines[i + 1:end])
            i = end + 1
            continue
        key, _, value = line.partition("=")
        found[key] = value
        i += 1
    return found


def _knowledge(root: Path, title: str, content: str) -> None:
    done = run_brv("curate", "add", "payments/ledger", "--title", title, "--content", content,
                   "--summary", f"{title}: the rule", cwd=root)
    assert done.exit_code == 0, done.stderr


@pytest.fixture
def in_project(tmp_path: Path) -> Path:
    """A project tracking its tree (in-project mode), main with one entry."""
    root = tmp_path / "proj"
    root.mkdir()
    git(root, "init", "-q", "-b", "main")
    (root / "app.py").write_text("print('v1')\n")
    assert run_brv("vc", "init", "--in-project", "--no-hooks", cwd=root).exit_code == 0
    _knowledge(root, "Double entry", "Postings sum to zero.")
    git(root, "add", "-A")
    git(root, "commit", "-qm", "main")
    git(root, "checkout", "-q", "-b", "feature")
    return root


def test_a_knowledge_change_gives_the_comment_body(in_project: Path, tmp_path: Path) -> None:
    sections = "\n\n".join(f"## Rule {n}\n" + "\n".join(f"line {n}.{i}" for i in range(30))
                           for n in range(4))
    _knowledge(in_project, "Refund window", sections)
    git(in_project, "add", "-A")
    git(in_project, "commit", "-qm", "feature: refunds")
    proc, out = run_step("diff", in_project, tmp_path, base="main", head="feature")
    assert proc.returncode == 0, proc.stderr
    assert out["changed"] == "true"
    body = Path(out["comment-file"]).read_text()
    assert out["body"] == body.rstrip("\n")
    assert body.startswith("## Knowledge changes")
    assert "payments/ledger/refund_window.md" in body
    assert "> Refund window: the rule" in body  # the summary
    assert "<details><summary>Rule 0 (30 lines)</summary>" in body  # folded sections
    assert "+ line 0.0" in body
    assert "more lines cut" in body  # cut at the budget, with a count
    assert re.search(r"1 more section \(30 lines\) cut", body) or "more sections" in body


def test_a_deleted_entry_shows_what_was_lost(in_project: Path, tmp_path: Path) -> None:
    gone = run_brv("curate", "delete", "payments/ledger/double_entry.md", "--reason", "wrong",
                   cwd=in_project)
    assert gone.exit_code == 0, gone.stderr
    git(in_project, "add", "-A")
    git(in_project, "commit", "-qm", "feature: drop")
    proc, out = run_step("diff", in_project, tmp_path, base="main", head="feature")
    assert proc.returncode == 0, proc.stderr
    body = out["body"]
    assert "**Knowledge removed**" in body
    assert "- Postings sum to zero." in body


def test_a_code_only_change_writes_nothing(in_project: Path, tmp_path: Path) -> None:
    (in_project / "app.py").write_text("print('v2')\n")
    git(in_project, "commit", "-qam", "feature: code only")
    proc, out = run_step("diff", in_project, tmp_path, base="main", head="feature")
    assert proc.returncode == 0, proc.stderr
    assert out == {"changed": "false"}
    assert not list((tmp_path / "runner").iterdir())  # no comment file at all


def test_standalone_knowledge_repository(tmp_path: Path) -> None:
    root = tmp_path / "proj"
    root.mkdir()
    assert run_brv("vc", "init", "--no-hooks", cwd=root).exit_code == 0
    _knowledge(root, "Double entry", "Postings sum to zero.")
    assert run_brv("vc", "add", cwd=root).exit_code == 0
    assert run_brv("vc", "commit", "-m", "main", cwd=root).exit_code == 0
    # CI checks out the knowledge repository itself: its root is the tree
    checkout = tmp_path / "checkout"
    git(tmp_path, "clone", "-q", str(root / ".brv" / "context-tree"), str(checkout))
    git(checkout, "checkout", "-q", "-b", "feature")
    (checkout / "payments" / "ledger" / "chargebacks.md").write_text(
        '---\ntitle: "Chargebacks"\nsummary: "Disputed charges"\n---\n## Narrative\n'
        "A chargeback reverses a settled charge.\n")
    git(checkout, "add", "-A")
    git(checkout, "commit", "-qm", "feature")
    proc, out = run_step("diff", checkout, tmp_path, base="main", head="feature")
    assert proc.returncode == 0, proc.stderr
    assert out["changed"] == "true"
    assert "payments/ledger/chargebacks.md" in out["body"]
    assert "> Disputed charges" in out["body"]
    assert git(checkout, "status", "--porcelain") == ""  # the checkout is left as it was


def test_missing_commits_fail_with_a_clear_message(in_project: Path, tmp_path: Path) -> None:
    proc, _ = run_step("diff", in_project, tmp_path, base="", head="")
    assert proc.returncode == 1
    assert "no base/head commits" in proc.stdout


@pytest.mark.slow
def test_the_install_step_installs_brv_from_the_action_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One real ``pip install "$GITHUB_ACTION_PATH"`` into a fresh virtualenv (~1 minute on a
    loaded machine: the build and its dependencies come from the package index)."""
    monkeypatch.delenv("PYTHONPATH", raising=False)  # only what the step installs counts
    venv = tmp_path / "venv"
    subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
    python = str(venv / "bin" / "python")
    build = REPO / "build"
    had_build = build.exists()
    try:
        proc, _ = run_step("install", tmp_path, tmp_path, python=python)
    finally:
        if not had_build:  # setuptools builds in the source folder
            shutil.rmtree(build, ignore_errors=True)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.strip().startswith("brv, version")
    where = subprocess.run([python, "-c", "import brv_vc; print(brv_vc.__file__)"],
                           cwd=tmp_path, capture_output=True, text=True, check=True).stdout
    assert str(venv) in where
