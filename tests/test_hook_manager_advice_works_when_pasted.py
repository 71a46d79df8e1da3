"""brv's advice about the pre-commit framework works when pasted: run through a shell as
printed, it leaves brv's check running exactly once, and ``brv hooks status`` then says so.

Both install orders, with pip's real ``pre-commit``: the framework first (its bare ``pre-commit
install`` installs 1 of brv's 6 hook types; the advice names the other 5), and brv first (the
framework moved brv's shim to ``pre-commit.legacy``, so with brv's part in its config the
check ran twice and the refusal was printed twice). lefthook and husky (the real ones from npm) in
both orders too: every line brv advises is pasted until it advises nothing more.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

import test_hooks_managers_both_orders as both_orders
from hooks_support import git, git_env, head, in_project, write
from manager_support import BROKEN, TEAM_CONFIG, ok, pre_commit, run

HOOKS = ("pre-commit", "commit-msg", "post-merge", "post-checkout", "post-rewrite", "pre-push")
REFUSED = "auth/jwt/broken.md: malformed YAML"
npm_bin = both_orders.npm_bin  # the fixture: the real lefthook from npm, once a session


def _env(home: Path) -> dict[str, str]:
    # pre-commit from this interpreter's scripts, as a developer's PATH has it
    return git_env(PRE_COMMIT_HOME=str(home),
                   PATH=f"{Path(sys.executable).parent}:{git_env()['PATH']}")


def brv(*args: str, cwd: Path, home: Path) -> str:
    """``brv ARGS`` as a real process; its whole output (stdout and stderr)."""
    done = ok(run(sys.executable, "-m", "brv_vc", *args, cwd=cwd, env=_env(home)))
    return done.stdout + done.stderr


def paste(advice: str, cwd: Path, home: Path) -> None:
    """Runs a printed command line through a shell, as a person pastes it."""
    ok(run("bash", "-c", advice, cwd=cwd, env=_env(home)))


def advised(said: str) -> list[str]:
    """The commands brv told to run (``run '...'``)."""
    return re.findall(r"run '([^']+)'", said)


def refused_once(root: Path, home: Path) -> None:
    """A malformed entry is refused, and its refusal is printed exactly once."""
    before = head(root)
    write(root, ".brv/context-tree/auth/jwt/broken.md", BROKEN)
    git("add", ".brv", ".pre-commit-config.yaml", cwd=root)  # the framework wants it staged
    proc = run("git", "commit", "-q", "-m", "broken", cwd=root, env=_env(home))
    assert proc.returncode != 0
    said = proc.stdout + proc.stderr
    assert said.count(REFUSED) == 1, said
    assert head(root) == before


def all_well(root: Path, home: Path) -> None:
    report = json.loads(brv("hooks", "status", "--json", cwd=root, home=home))
    assert [h["name"] for h in report["hooks"] if not h["brv_runs"]] == []
    assert report["snippet"] == ""
    assert [n for n in report["notes"] if "run '" in n] == []  # nothing left to do
    said = brv("hooks", "status", cwd=root, home=home)
    assert "brv's part runs in every hook" in said


def _team(root: Path) -> None:
    write(root, ".pre-commit-config.yaml", TEAM_CONFIG)
    git("add", ".pre-commit-config.yaml", cwd=root)
    git("commit", "-q", "--no-verify", "-m", "team hooks", cwd=root)


def test_framework_first_the_printed_install_line_installs_every_hook(tmp_path: Path) -> None:
    root, home = in_project(tmp_path).root, tmp_path / "pc-home"
    _team(root)
    ok(pre_commit("install", cwd=root, home=home))
    said = brv("hooks", "install", "--integrate", cwd=root, home=home)
    line = next(a for a in advised(said) if a.startswith("pre-commit install"))
    assert line == "pre-commit install" + "".join(f" --hook-type {n}" for n in HOOKS[1:])
    assert advised(brv("hooks", "status", cwd=root, home=home)) == [line]  # the same advice
    paste(line, root, home)
    all_well(root, home)
    refused_once(root, home)


def test_brv_first_integrate_leaves_the_check_running_once(tmp_path: Path) -> None:
    root, home = in_project(tmp_path).root, tmp_path / "pc-home"
    _team(root)
    brv("hooks", "install", cwd=root, home=home)
    ok(pre_commit("install", cwd=root, home=home))  # brv's shim becomes pre-commit.legacy
    brv("hooks", "install", "--integrate", cwd=root, home=home)
    assert not (root / ".git/hooks/pre-commit.legacy").exists()
    all_well(root, home)
    refused_once(root, home)


def test_brv_first_a_config_pasted_by_hand_is_told_and_fixed_by_the_advice(
        tmp_path: Path) -> None:
    root, home = in_project(tmp_path).root, tmp_path / "pc-home"
    _team(root)
    brv("hooks", "install", cwd=root, home=home)
    ok(pre_commit("install", cwd=root, home=home))
    # the team pastes brv's part into the config (as printed for a framework-first clone)
    report = json.loads(brv("hooks", "install", "--json", cwd=root, home=home))
    assert report["snippet"] == ""  # brv's part runs (as the legacy hook): nothing to add yet
    merged = run(sys.executable, "-c", "from pathlib import Path; import sys; "
                 "from brv_vc.vc.hook_managers import Manager; "
                 "from brv_vc.vc.manager_config import merged_config; "
                 "print(merged_config(Manager('pre-commit', Path(sys.argv[1])), "
                 "('pre-commit',), '.brv/context-tree'), end='')",
                 str(root / ".pre-commit-config.yaml"), cwd=root, env=_env(home)).stdout
    (root / ".pre-commit-config.yaml").write_text(merged)
    said = brv("hooks", "status", cwd=root, home=home)
    assert "brv's check runs twice in pre-commit" in said
    assert advised(said) == ["brv hooks install"]
    paste(f"{sys.executable} -m brv_vc hooks install", root, home)  # 'brv' off PATH here
    all_well(root, home)
    refused_once(root, home)


LEFTHOOK_TEAM = "pre-commit:\n  commands:\n    lint:\n      run: echo lint  # the team's\n"


def _with_npm(home: Path, tools: Path) -> dict[str, str]:
    env = _env(home)
    return {**env, "PATH": f"{tools}:{env['PATH']}"}


def _follow(root: Path, home: Path, tools: Path, said: str) -> None:
    """Pastes every command brv advised, in order, until brv advises nothing more."""
    for _ in range(4):
        lines = advised(said)
        if not lines:
            return
        for line in lines:
            ok(run("bash", "-c", line, cwd=root, env=_with_npm(home, tools)))
        said = ok(run(sys.executable, "-m", "brv_vc", "hooks", "status", cwd=root,
                      env=_with_npm(home, tools))).stdout
    raise AssertionError(f"brv kept advising: {said}")


def _refused_once_npm(root: Path, home: Path, tools: Path) -> None:
    before = head(root)
    write(root, ".brv/context-tree/auth/jwt/broken.md", BROKEN)
    git("add", ".brv", cwd=root)
    proc = run("git", "commit", "-q", "-m", "broken", cwd=root, env=_with_npm(home, tools))
    assert proc.returncode != 0
    assert (proc.stdout + proc.stderr).count(REFUSED) == 1, proc.stdout + proc.stderr
    assert head(root) == before


def test_lefthook_both_orders_the_advice_works_when_pasted(tmp_path: Path,
                                                           npm_bin: Path) -> None:
    home, tools = tmp_path / "home", npm_bin
    for order in ("brv-first", "lefthook-first"):
        root = in_project(tmp_path, order).root
        if order == "brv-first":
            brv("hooks", "install", cwd=root, home=home)
        write(root, "lefthook.yml", LEFTHOOK_TEAM)
        ok(run(tools / "lefthook", "install", cwd=root, env=_with_npm(home, tools)))
        said = (brv("vc", "status", cwd=root, home=home) if order == "brv-first"
                else brv("hooks", "install", cwd=root, home=home))
        assert advised(said) or "fix: brv hooks install --integrate" in said, said
        if "fix: " in said and not advised(said):
            said = f"run '{said.split('fix: ', 1)[1].splitlines()[0]}'"
        _follow(root, home, tools, said)
        all_well(root, home)
        _refused_once_npm(root, home, tools)


def test_husky_both_orders_the_advice_works_when_pasted(tmp_path: Path, npm_bin: Path) -> None:
    home, tools = tmp_path / "home", npm_bin
    for order in ("brv-first", "husky-first"):
        root = in_project(tmp_path, order).root
        if order == "brv-first":
            brv("hooks", "install", cwd=root, home=home)
        ok(run(tools / "husky", cwd=root, env=_with_npm(home, tools)))  # .husky/_, hooksPath
        write(root, ".husky/pre-commit", 'echo team-ran >> "$(git rev-parse --git-dir)/t"\n')
        said = (brv("vc", "status", cwd=root, home=home) if order == "brv-first"
                else brv("hooks", "install", cwd=root, home=home))
        if "fix: " in said:
            said = f"run '{said.split('fix: ', 1)[1].splitlines()[0]}'"
        _follow(root, home, tools, said)
        all_well(root, home)
        _refused_once_npm(root, home, tools)
