"""brv hooks install / uninstall / status: where hooks go, chaining, upgrades, hooksPath."""

from __future__ import annotations

import shlex
import stat
from pathlib import Path

from conftest import snapshot
from hooks_support import git, head, in_project, standalone, write

from brv_vc.interpreter import interpreter
from brv_vc.resources import hook_template
from brv_vc.services.hooks import install_hooks
from brv_vc.vc.hook_missing import BLOCKING, legacy_stop, refusal, warning
from brv_vc.vc.hooks_install import FAST_EXITS, HOOK_NAMES, MARKER, render

FOREIGN = "#!/bin/sh\necho \"foreign $0 ran\" >> \"$(git rev-parse --git-dir)/foreign.log\"\n"


def test_every_hook_is_rendered_from_the_one_template() -> None:
    template = hook_template().read_text()
    assert MARKER in template
    assert template.startswith("#!/bin/sh\n")
    for name in HOOK_NAMES:
        text = render(name, "/opt/py").decode()
        assert f"\nHOOK={name}\n" in text
        assert "\nPY=/opt/py" in text
        assert f"\nFAST={shlex.quote(' '.join(FAST_EXITS[name]))}\n" in text
        # nothing else differs between two hooks' scripts
        other = render("pre-commit", "/opt/py").decode()
        assert text.replace(f"HOOK={name}", "HOOK=x").split("\nFAST=")[0] == other.replace(
            "HOOK=pre-commit", "HOOK=x").split("\nFAST=")[0]
        # and after it, only what vc/hook_missing.py renders (shared with the hook managers'
        # line): the refusal and the warning when brv is missing, and whether a failed legacy
        # hook blocks
        assert (f"\n{refusal(name, '${PY:-none}', '$knowledge')}  # rendered from" in text)
        rest, other_rest = (t.split("\nFAST=")[1].splitlines()[1:] for t in (text, other))
        differ = [a for a, b in zip(rest, other_rest, strict=True) if a != b]
        assert all(a.startswith((refusal(name, "${PY:-none}", "$knowledge"), legacy_stop(name),
                                 warning(name, "${PY:-none}", "$0")))
                   for a in differ)
        assert len(differ) == 2 * (name != "pre-commit") + (name not in BLOCKING)


def test_install_standalone_writes_executable_shims_recording_python(tmp_path: Path, brv) -> None:
    project = standalone(tmp_path)
    result = brv("hooks", "install", "--json", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    data = result.json()
    hooks_dir = project.tree / ".git" / "hooks"
    assert data["mode"] == "standalone"
    assert data["hooks_dir"] == str(hooks_dir)
    assert [h["action"] for h in data["hooks"]] == ["installed"] * len(HOOK_NAMES)
    for name in HOOK_NAMES:
        path = hooks_dir / name
        text = path.read_text()
        assert MARKER in text
        assert f"\nPY={shlex.quote(interpreter())}  # the Python that ran" in text
        assert path.stat().st_mode & stat.S_IXUSR

    again = brv("hooks", "install", "--json", cwd=project.root).json()
    assert [h["action"] for h in again["hooks"]] == ["unchanged"] * len(HOOK_NAMES)

    status = brv("hooks", "status", "--json", cwd=project.root).json()
    states = [(h["state"], h["python"]) for h in status["hooks"]]
    assert states == [("installed", interpreter())] * len(HOOK_NAMES)


def test_an_older_shim_of_ours_is_upgraded_in_place(tmp_path: Path, brv) -> None:
    project = standalone(tmp_path)
    brv("hooks", "install", cwd=project.root)
    old = project.tree / ".git/hooks/post-merge"
    old.write_text(f"#!/bin/sh\n# {MARKER}\nPY=''\necho old version\n")
    status = brv("hooks", "status", cwd=project.root)
    assert "post-merge     outdated: run 'brv hooks install' to upgrade" in status.stdout
    result = brv("hooks", "install", cwd=project.root)
    assert "post-merge     upgraded to this version" in result.stdout
    assert "old version" not in old.read_text()
    assert not (project.tree / ".git/hooks/post-merge.legacy").exists()


def test_foreign_hook_is_kept_chained_and_restored_by_uninstall(tmp_path: Path, brv) -> None:
    project = standalone(tmp_path)
    hooks_dir = project.tree / ".git/hooks"
    foreign = write(hooks_dir, "pre-commit", FOREIGN)
    foreign.chmod(0o755)
    result = brv("hooks", "install", cwd=project.root)
    assert result.exit_code == 0
    assert ("pre-commit     installed; your existing hook was kept as pre-commit.legacy and "
            "runs first") in result.stdout
    assert (hooks_dir / "pre-commit.legacy").read_text() == FOREIGN
    assert brv("hooks", "status", "--json", cwd=project.root).json()["hooks"][0]["legacy"] is True

    write(project.tree, "auth/jwt/new_entry.md", b"---\ntitle: New entry\n---\nText.\n")
    git("add", "-A", cwd=project.tree)
    git("commit", "-q", "-m", "second", cwd=project.tree)
    assert "foreign" in (project.tree / ".git/foreign.log").read_text()

    removed = brv("hooks", "uninstall", cwd=project.root)
    assert "pre-commit     removed; your previous hook was restored" in removed.stdout
    assert "post-merge     removed" in removed.stdout
    assert (hooks_dir / "pre-commit").read_text() == FOREIGN
    assert not (hooks_dir / "pre-commit.legacy").exists()
    assert not (hooks_dir / "post-merge").exists()


def test_failing_foreign_pre_commit_still_blocks_the_commit(tmp_path: Path, brv) -> None:
    project = standalone(tmp_path)
    hook = write(project.tree / ".git/hooks", "pre-commit", "#!/bin/sh\necho no >&2\nexit 7\n")
    hook.chmod(0o755)
    brv("hooks", "install", cwd=project.root)
    before = head(project.tree)
    write(project.tree, "auth/jwt/new_entry.md", b"---\ntitle: New entry\n---\nText.\n")
    git("add", "-A", cwd=project.tree)
    proc = git("commit", "-q", "-m", "second", cwd=project.tree, check=False)
    assert proc.returncode == 1
    assert "no" in proc.stderr
    assert head(project.tree) == before


def test_foreign_hook_and_legacy_both_present_is_refused_and_nothing_changes(
    tmp_path: Path, brv
) -> None:
    project = standalone(tmp_path)
    hooks_dir = project.tree / ".git/hooks"
    write(hooks_dir, "post-checkout", FOREIGN)
    write(hooks_dir, "post-checkout.legacy", "#!/bin/sh\necho older\n")
    before = snapshot(hooks_dir)
    result = brv("hooks", "install", cwd=project.root)
    assert result.exit_code == 1
    assert ("brv: error: post-checkout: both the hook and post-checkout.legacy exist and neither "
            "is brv's, so brv cannot keep both") in result.stderr
    assert f"file: {hooks_dir / 'post-checkout'}" in result.stderr
    assert "hint: merge or remove one of them" in result.stderr
    assert snapshot(hooks_dir) == before


def test_core_hooks_path_is_used_and_said(tmp_path: Path, brv) -> None:
    project = standalone(tmp_path)
    git("config", "core.hooksPath", "team-hooks", cwd=project.tree)
    result = brv("hooks", "install", "--json", cwd=project.root)
    assert result.exit_code == 0, result.stderr
    data = result.json()
    shared = project.tree / "team-hooks"
    assert data["hooks_dir"] == str(shared)
    assert data["hooks_path"] == "team-hooks"
    assert "core.hooksPath is set to 'team-hooks'" in data["notes"][0]
    assert sorted(p.name for p in shared.iterdir()) == sorted(HOOK_NAMES)
    assert not (project.tree / ".git/hooks/pre-commit").exists()
    text = brv("hooks", "install", cwd=project.root).stdout
    assert "note: core.hooksPath is set to 'team-hooks', so git runs hooks from" in text


def test_in_project_mode_installs_into_the_project_repository(tmp_path: Path, brv) -> None:
    project = in_project(tmp_path)
    data = brv("hooks", "install", "--json", cwd=project.root).json()
    assert data["mode"] == "in-project"
    assert data["repository"] == str(project.root)
    assert (project.root / ".git/hooks/pre-commit").exists()


def test_linked_worktree_installs_into_the_common_git_dir(tmp_path: Path, brv) -> None:
    project = in_project(tmp_path)
    linked = tmp_path / "linked"
    git("worktree", "add", "-q", str(linked), cwd=project.root)
    data = brv("hooks", "install", "--json", cwd=linked).json()
    assert data["hooks_dir"] == str(project.root / ".git" / "hooks")
    assert data["repository"] == str(linked)


def test_tree_outside_any_repository_is_a_clear_error(tmp_path: Path, brv, project) -> None:
    before = snapshot(project.root)
    result = brv("hooks", "install", cwd=project.root)
    assert result.exit_code == 1
    assert "brv: error: the context tree is not under version control" in result.stderr
    assert "hint: run 'brv vc init'" in result.stderr
    assert snapshot(project.root) == before


def test_install_hooks_service_is_callable_without_the_cli(tmp_path: Path) -> None:
    project = standalone(tmp_path)
    report = install_hooks(project, python="/opt/py's/bin/python3")
    assert report.mode == "standalone"
    text = (project.tree / ".git/hooks/pre-commit").read_text()
    assert "\nPY='/opt/py'\"'\"'s/bin/python3'  # the Python" in text
    assert report.hooks[0].python == "/opt/py's/bin/python3"


def test_status_says_when_the_recorded_python_is_gone(tmp_path: Path, brv) -> None:
    project = standalone(tmp_path)
    install_hooks(project, python="/nonexistent/python3")
    text = brv("hooks", "status", cwd=project.root).stdout
    assert ("pre-commit     installed; its Python /nonexistent/python3 is gone: run "
            "'brv hooks install'") in text
    none = brv("hooks", "uninstall", cwd=project.root)
    again = brv("hooks", "uninstall", cwd=project.root)
    assert "pre-commit     removed" in none.stdout
    assert "pre-commit     not installed" in again.stdout


def test_hooks_help_has_an_example(brv, tmp_path: Path) -> None:
    for args in (("hooks", "--help"), ("hooks", "install", "--help")):
        result = brv(*args, cwd=tmp_path)
        assert result.exit_code == 0
        assert "Example:" in result.stdout
    assert "hook-impl" not in brv("--help", cwd=tmp_path).stdout
