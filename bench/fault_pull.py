"""Fault script: ``kill -9`` of ``brv vc pull`` (the whole process group) during a real merge.

Two real clones of a bare remote: alice archives, edits and adds entries and pushes; bob has a
local commit of his own (so the pull makes a merge commit, through brv's merge driver for an
entry both edited). Each trial copies bob's project, starts ``brv vc pull`` in its own session
and kills its process group either at a random moment of a whole run or at a targeted one:

- ``prepared:<ref>`` / ``committed:<ref>``: git's ``reference-transaction`` hook holds the
  moment (the ref's ``.lock`` is held while ``prepared``; after ``committed`` HEAD has moved
  while ``MERGE_HEAD`` is still there); refs: ORIG_HEAD, HEAD, refs/remotes/origin/main;
- ``file:<path>``: the moment a file appears (the pull's intent record, ``index.lock``,
  ``MERGE_HEAD``), found by polling.

After the kill the script acts as a user who only follows brv's messages: it runs
``brv vc pull``; when that fails it runs the one command the error names, then pulls again.
A trial passes when no further step is needed and the result is consistent: HEAD contains the
remote's commit and bob's local commit, the working tree is clean, no ``*.lock`` or
``MERGE_HEAD`` is left, archives are rebuilt, every entry parses, and a new commit works.

    python bench/fault_pull.py --trials 120 [--workdir /tmp/trust-vc-fault] [--seed 1]

Prints the table (what the first pull after the kill needed) and every failure.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import re
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(REPO))

from brv_vc.format.entry import parse_entry  # noqa: E402
from brv_vc.tree.layout import Kind, kind_of  # noqa: E402

T0 = "2025-03-01T10:00:00Z"
TARGETS = (
    "prepared:ORIG_HEAD", "prepared:HEAD", "committed:HEAD",
    "prepared:refs/remotes/origin/main", "file:.brv/state/pending/pull-",
    "file:.brv/context-tree/.git/index.lock", "file:.brv/context-tree/.git/MERGE_HEAD",
)
HOOK = """#!/bin/sh
# fault_pull.py: mark (and hold) a moment of a ref transaction; inert without FAULT_MARK
[ -n "$FAULT_MARK" ] || exit 0
while read -r old new ref; do
  echo "$1:$ref" >> "$FAULT_MARK/events"
  if [ "$1:$ref" = "$FAULT_HOLD" ]; then : > "$FAULT_MARK/hit"; sleep 30; fi
done
exit 0
"""


def machine(base: Path) -> dict[str, str]:
    """An environment with its own HOME and git identity (nothing of the real user's)."""
    home = base / "home"
    home.mkdir(parents=True, exist_ok=True)
    (home / ".gitconfig").write_text(
        "[user]\n\tname = Fault\n\temail = fault@example.com\n[init]\n\tdefaultBranch = main\n"
        "[commit]\n\tgpgsign = false\n[protocol \"file\"]\n\tallow = always\n")
    env = {k: v for k, v in os.environ.items()
           if not k.startswith(("GIT_", "BRV_", "FAULT_"))}
    env.update(HOME=str(home), XDG_CONFIG_HOME=str(home / ".config"),
               GIT_CONFIG_GLOBAL=str(home / ".gitconfig"), GIT_CONFIG_NOSYSTEM="1",
               PYTHONPATH=str(REPO), BRV_NOW="2026-01-05T10:00:00Z")
    return env


def brv(root: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "brv_vc", *args], cwd=root, env=env,
                          capture_output=True, text=True, check=False, timeout=300)


def git(cwd: Path, env: dict[str, str], *args: str) -> str:
    proc = subprocess.run(["git", *args], cwd=cwd, env=env, capture_output=True, text=True,
                          check=False)
    if proc.returncode != 0:
        raise RuntimeError(f"git {' '.join(args)}: {proc.stderr}")
    return proc.stdout


def entry(title: str, narrative: str, facts: str = "") -> str:
    return (f'---\ntitle: "{title}"\nsummary: ""\ntags: []\nkeywords: []\nrelated: []\n'
            f'createdAt: "{T0}"\nupdatedAt: "{T0}"\n---\n\n## Narrative\n{narrative}\n'
            + (f"\n## Facts\n{facts}\n" if facts else ""))


def ok(proc: subprocess.CompletedProcess[str], what: str) -> None:
    if proc.returncode != 0:
        raise RuntimeError(f"{what}: {proc.stdout}{proc.stderr}")


@dataclass(frozen=True)
class Scene:
    """bob's project before his pull, and what a finished pull must contain."""

    bob: Path
    remote_head: str
    local_head: str
    archived: tuple[str, ...]
    env: dict[str, str]


def build(base: Path, entries: int = 60) -> Scene:
    """The remote, alice's pushed changes and bob's unpushed local commit."""
    env = machine(base)
    remote = base / "knowledge.git"
    git(base, env, "init", "-q", "--bare", "-b", "main", str(remote))
    alice, bob = base / "alice", base / "bob"
    alice.mkdir()
    bob.mkdir()
    ok(brv(alice, env, "vc", "init"), "alice vc init")
    tree = alice / ".brv/context-tree"

    def write(root: Path, rel: str, text: str) -> None:
        path = root / ".brv/context-tree" / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")

    for i in range(entries):
        write(alice, f"d{i % 3}/t{i % 5}/entry_{i}.md", entry(f"Entry {i}", f"body {i}",
                                                             f"- fact {i}"))
    for args in (("vc", "add"), ("vc", "commit", "-m", "first"),
                 ("vc", "remote", "add", "origin", str(remote)), ("vc", "push", "-u")):
        ok(brv(alice, env, *args), f"alice {args}")
    ok(brv(bob, env, "vc", "clone", str(remote)), "bob clone")
    # bob's own commit, not pushed: new entries, and entry_40's narrative (alice edits its facts)
    for i in range(100, 110):
        write(bob, f"bob/t{i % 2}/entry_{i}.md", entry(f"Bob {i}", f"bob body {i}"))
    write(bob, "d1/t0/entry_40.md", entry("Entry 40", "bob's narrative 40", "- fact 40"))
    ok(brv(bob, env, "vc", "add"), "bob add")
    ok(brv(bob, env, "vc", "commit", "-m", "bob's work"), "bob commit")
    archived = tuple(f"d{i % 3}/t{i % 5}/entry_{i}.md" for i in range(5))
    for rel in archived:
        ok(brv(alice, env, "archive", rel), f"archive {rel}")
    for i in range(5, 25):
        write(alice, f"d{i % 3}/t{i % 5}/entry_{i}.md", entry(f"Entry {i}", f"edited {i}",
                                                             f"- fact {i}"))
    for i in range(60, 90):
        write(alice, f"d{i % 4}/t{i % 6}/entry_{i}.md", entry(f"Entry {i}", f"new {i}"))
    write(alice, "d1/t0/entry_40.md", entry("Entry 40", "body 40", "- alice's fact 40"))
    for args in (("vc", "add"), ("vc", "commit", "-m", "second"), ("vc", "push")):
        ok(brv(alice, env, *args), f"alice {args}")
    hooks = Path(git(bob / ".brv/context-tree", env, "rev-parse", "--absolute-git-dir")
                 .strip()) / "hooks"
    hooks.mkdir(exist_ok=True)
    (hooks / "reference-transaction").write_text(HOOK)
    (hooks / "reference-transaction").chmod(0o755)
    return Scene(bob, git(tree, env, "rev-parse", "HEAD").strip(),
                 git(bob / ".brv/context-tree", env, "rev-parse", "HEAD").strip(), archived, env)


def start(root: Path, env: dict[str, str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-m", "brv_vc", "vc", "pull"], cwd=root, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                            start_new_session=True)


def kill_group(proc: subprocess.Popen[bytes]) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    for _ in range(1000):  # children (git, hooks, the merge driver) die a moment later
        try:
            os.killpg(proc.pid, 0)
        except ProcessLookupError:
            return
        time.sleep(0.01)


def whole_run(scene: Scene, probe: Path) -> float:
    """Median time of three whole pulls (each on a fresh copy)."""
    times = []
    for _ in range(3):
        shutil.rmtree(probe, ignore_errors=True)
        shutil.copytree(scene.bob, probe, symlinks=True)
        began = time.monotonic()
        if start(probe, scene.env).wait(timeout=300) != 0:
            raise RuntimeError("a whole pull failed")
        times.append(time.monotonic() - began)
    shutil.rmtree(probe, ignore_errors=True)
    return statistics.median(times)


def kill_at(root: Path, env: dict[str, str], moment: str | float, limit: float) -> bool:
    """Runs the pull in ``root`` and kills it at ``moment``; True when the kill landed."""
    marks = Path(tempfile.mkdtemp(prefix="marks-", dir=root.parent))
    run_env = dict(env)
    if isinstance(moment, str) and not moment.startswith("file:"):
        run_env.update(FAULT_MARK=str(marks), FAULT_HOLD=moment)
    proc = start(root, run_env)
    try:
        if isinstance(moment, float):
            try:
                proc.wait(timeout=moment)
                return False
            except subprocess.TimeoutExpired:
                kill_group(proc)
                return True
        deadline = time.monotonic() + limit
        if moment.startswith("file:"):
            rel = moment[5:]
            folder, prefix = (root / rel).parent, (root / rel).name
            while time.monotonic() < deadline and proc.poll() is None:
                try:
                    if any(n.startswith(prefix) for n in os.listdir(folder)):
                        kill_group(proc)
                        return True
                except OSError:
                    pass
            return False
        while time.monotonic() < deadline and proc.poll() is None:
            if (marks / "hit").exists():
                kill_group(proc)
                return True
            time.sleep(0.002)
        return False
    finally:
        if proc.poll() is None:
            kill_group(proc)
        shutil.rmtree(marks, ignore_errors=True)


_NAMED = re.compile(r"brv vc [a-z-]+(?: --[a-z-]+)?")


def named_commands(stderr: str) -> list[str]:
    """The ``brv vc ...`` commands an error names (in its message and hint)."""
    return sorted({m.group(0) for m in _NAMED.finditer(stderr)} - {"brv vc pull"})


@dataclass
class Outcome:
    """One trial: what the first pull needed, and what was wrong afterwards."""

    needed: str
    problems: list[str] = field(default_factory=list)


def follow(root: Path, scene: Scene) -> Outcome:
    """Acts as a user who only follows brv's messages, then checks the result."""
    env = scene.env
    pulled = brv(root, env, "vc", "pull")
    outcome = Outcome("nothing")
    if pulled.returncode != 0:
        named = named_commands(pulled.stderr)
        outcome.needed = " / ".join(named) or "no command named"
        if len(named) != 1:
            outcome.problems.append(f"the error names {len(named)} commands: "
                                    f"{pulled.stderr.strip()[:300]}")
        if named:
            fix = brv(root, env, *named[0].split()[1:])
            if fix.returncode != 0:
                outcome.problems.append(f"'{named[0]}' failed: {fix.stderr.strip()[:300]}")
            pulled = brv(root, env, "vc", "pull")
        if pulled.returncode != 0:
            outcome.problems.append(f"pull still fails: {pulled.stderr.strip()[:300]}")
    outcome.problems += check(root, scene)
    return outcome


def check(root: Path, scene: Scene) -> list[str]:
    """What is inconsistent after the recovery (empty: all good)."""
    env, tree = scene.env, root / ".brv/context-tree"
    problems = []
    for commit, whose in ((scene.remote_head, "the remote's"), (scene.local_head, "bob's")):
        if subprocess.run(["git", "merge-base", "--is-ancestor", commit, "HEAD"], cwd=tree,
                          env=env, capture_output=True, check=False).returncode != 0:
            problems.append(f"HEAD lacks {whose} commit")
    left = git(tree, env, "status", "--porcelain", "--untracked-files=all")
    if left:
        problems.append(f"tree not clean: {left[:200]}")
    gitdir = tree / ".git"
    locks = sorted(str(p.relative_to(gitdir)) for p in gitdir.rglob("*.lock"))
    if locks:
        problems.append(f"locks left: {locks}")
    if (gitdir / "MERGE_HEAD").exists():
        problems.append("MERGE_HEAD left")
    for rel in scene.archived:
        stub = tree / "_archived" / rel.replace(".md", ".stub.md")
        full = tree / "_archived" / rel.replace(".md", ".full.md")
        i = int(rel.rsplit("_", 1)[1].removesuffix(".md"))
        original = entry(f"Entry {i}", f"body {i}", f"- fact {i}").encode("utf-8")
        if not stub.is_file():
            problems.append(f"archive not rebuilt: {rel}")
        elif not full.is_file() or full.read_bytes() != original:
            problems.append(f"archive of {rel} is not the whole original entry")
    for path in tree.rglob("*.md"):
        rel = path.relative_to(tree).as_posix()
        if rel.startswith((".git/", "_archived/")) or kind_of(rel) is not Kind.ENTRY:
            continue
        try:
            parse_entry(path.read_bytes(), file=rel)
        except Exception as exc:  # any failure is a finding
            problems.append(f"corrupt {rel}: {exc}")
    merged = (tree / "d1/t0/entry_40.md").read_text(encoding="utf-8")
    if "bob's narrative 40" not in merged or "alice's fact 40" not in merged:
        problems.append("entry_40 lost one side's edit")
    (tree / "after/t/entry_new.md").parent.mkdir(parents=True, exist_ok=True)
    (tree / "after/t/entry_new.md").write_text(entry("After", "a later commit"))
    for args in (("vc", "add"), ("vc", "commit", "-m", "after the pull")):
        proc = brv(root, env, *args)
        if proc.returncode != 0:
            problems.append(f"a later '{' '.join(args)}' fails: {proc.stderr.strip()[:200]}")
            break
    return problems


def run(base: Path, trials: int, seed: int, log: Path | None = None) -> dict[str, object]:
    """Builds the scene once and runs ``trials`` kills; returns the table and failures."""
    scene = build(base / "scene")
    full = whole_run(scene, base / "probe")
    rng = random.Random(seed)
    table: Counter[str] = Counter()
    by_moment: Counter[str] = Counter()
    failures: list[str] = []
    kills = attempts = 0
    while kills < trials and attempts < 3 * trials:
        attempts += 1
        root = base / f"t{attempts}"
        shutil.copytree(scene.bob, root, symlinks=True)
        if attempts % 2:
            moment: str | float = rng.uniform(0.0, 1.05 * full)
            label = f"random {moment:.2f}s of {full:.2f}s"
        else:
            moment = TARGETS[(attempts // 2) % len(TARGETS)]
            label = moment
        if not kill_at(root, scene.env, moment, limit=3 * full + 10):
            shutil.rmtree(root, ignore_errors=True)
            continue
        kills += 1
        outcome = follow(root, scene)
        key = "needed nothing" if outcome.needed == "nothing" else f"named {outcome.needed}"
        table[key] += 1
        by_moment[f"{'random' if isinstance(moment, float) else moment}: {key}"] += 1
        for problem in outcome.problems:
            failures.append(f"trial {attempts} ({label}): {problem}")
        if outcome.problems:
            table["manual step needed / inconsistent"] += 1
        shutil.rmtree(root, ignore_errors=True)
        if log is not None:
            with open(log, "a", encoding="utf-8") as out:
                out.write(json.dumps({"trial": attempts, "moment": label,
                                      "needed": outcome.needed,
                                      "problems": outcome.problems}) + "\n")
    return {"kills": kills, "attempts": attempts, "full_run_s": round(full, 2),
            "table": dict(table), "by_moment": dict(sorted(by_moment.items())),
            "failures": failures}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=120)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--workdir", type=Path, default=None)
    parser.add_argument("--log", type=Path, default=None, help="one JSON line per trial")
    args = parser.parse_args()
    base = args.workdir or Path(tempfile.mkdtemp(prefix="fault-pull-"))
    shutil.rmtree(base, ignore_errors=True)
    base.mkdir(parents=True)
    began = time.monotonic()
    result = run(base, args.trials, args.seed, args.log)
    load = Path("/proc/loadavg").read_text().split()[:3]
    print(f"load average: {load}; "
          f"{time.monotonic() - began:.0f} s")
    print(json.dumps({k: v for k, v in result.items() if k != "failures"}, indent=1))
    failures = result["failures"]
    assert isinstance(failures, list)
    print(f"{len(failures)} problems")
    for line in failures[:60]:
        print(" ", line)
    shutil.rmtree(base, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
