"""The world of ``bench/team_sim.py``: a git daemon on loopback, N clones, processes that may
be killed, and the person's conflict resolution (each resolved file is a counted manual step).

Nothing here knows what the agents wrote; ``team_sim_agents`` keeps that ledger.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
TREE = Path(".brv") / "context-tree"
GENERATED = ("context.md", ".gitignore", ".gitattributes")
SEEDED = ("shared/alpha/common_one.md", "shared/alpha/common_two.md",
          "shared/beta/common_three.md")
MARK = re.compile(r"^(<{7}|={7}|>{7}|\|{7})( |$)")


@dataclass
class Ran:
    """One finished process."""

    code: int
    out: str
    err: str
    killed: bool = False

    def json(self) -> dict[str, object]:
        try:
            loaded = json.loads(self.out)
        except ValueError:
            return {}
        return loaded if isinstance(loaded, dict) else {}


@dataclass
class Clone:
    """One teammate's project: ``root``, its tree, and where plain git is run."""

    index: int
    root: Path
    in_project: bool
    rng: random.Random

    @property
    def tree(self) -> Path:
        return self.root / TREE

    @property
    def work(self) -> Path:
        """The git work tree holding the tree (the project in-project, else the tree)."""
        return self.root if self.in_project else self.tree

    def repo_path(self, tree_path: str) -> str:
        return f"{TREE.as_posix()}/{tree_path}" if self.in_project else tree_path


@dataclass
class World:
    """Everything one mode's run shares; ``stats`` counts events (thread-safe through ``add``)."""

    mode: str
    base: Path
    url: str
    env: dict[str, str]
    kill_rate: float
    clones: list[Clone] = field(default_factory=list)
    stats: Counter[str] = field(default_factory=Counter)
    lock: threading.Lock = field(default_factory=threading.Lock)
    forge_lock: threading.Lock = field(default_factory=threading.Lock)

    def add(self, key: str, n: int = 1) -> None:
        with self.lock:
            self.stats[key] += n

    def note(self, clone: Clone, text: str) -> None:
        """One line of ``journal.log`` (to trace a loss back to what happened around it)."""
        with self.lock, (self.base / "journal.log").open("a", encoding="utf-8") as out:
            out.write(f"{time.monotonic():.3f} c{clone.index} {text}\n")

    def run(self, argv: list[str], cwd: Path, *, stdin: str | None = None,
            kill_after: float | None = None, env: dict[str, str] | None = None) -> Ran:
        """Runs ``argv``; ``kill_after`` seconds: ``kill -9`` of its whole group if still running."""
        proc = subprocess.Popen(argv, cwd=cwd, env=env or self.env, text=True,
                                stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, start_new_session=True)
        try:
            out, err = proc.communicate(stdin, timeout=kill_after if kill_after else 600)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            out, err = proc.communicate()
            return Ran(-9, out, err, killed=kill_after is not None)
        return Ran(proc.returncode, out, err)

    def brv(self, clone: Clone, *args: str, stdin: str | None = None,
            killable: bool = True) -> Ran:
        """``brv ARGS`` as a real process in ``clone``; now and then killed at a random moment."""
        kill_after = self.kill_delay(clone) if killable else None
        ran = self.run([sys.executable, "-m", "brv_vc", *args], clone.root, stdin=stdin,
                       kill_after=kill_after, env=self.clone_env(clone))
        self.note(clone, f"brv {' '.join(args)[:80]} -> {'KILLED' if ran.killed else ran.code}")
        if ran.killed:
            self.add("kills")
            self.add(f"kills: brv {' '.join(args[:2])}")
        return ran

    def kill_delay(self, clone: Clone) -> float | None:
        """Seconds after which this process is to be killed (``kill -9``), or None (most)."""
        if self.kill_rate and clone.rng.random() < self.kill_rate:
            return clone.rng.uniform(0.05, 1.5)
        return None

    def git(self, clone: Clone, *args: str) -> Ran:
        """Plain git in ``clone``, run again as a person does when it met a brv write.

        A brv writer holds git's ``index.lock`` for the milliseconds of its write
        (vc/git_index_lock.py); a git started meanwhile stops at once with "index.lock':
        File exists" and changes nothing. A person reads that and runs the command again.
        """
        for _ in range(GIT_RETRIES):
            ran = self.run(["git", *args], clone.work, env=self.clone_env(clone))
            if ran.code == 0 or "index.lock': File exists" not in ran.err:
                break
            self.add("git met a brv write (index.lock), run again")
            time.sleep(clone.rng.uniform(0.05, 0.3))
        if args[0] not in ("diff", "rev-parse", "status", "ls-files", "stash") or (
                args[0] == "stash" and args[1:2] != ("list",)):
            self.note(clone, f"git {' '.join(args)[:80]} -> {ran.code}")
        return ran

    def clone_env(self, clone: Clone) -> dict[str, str]:
        name = f"agent{clone.index}"
        return {**self.env, "GIT_AUTHOR_NAME": name, "GIT_COMMITTER_NAME": name,
                "GIT_AUTHOR_EMAIL": f"{name}@sim.test", "GIT_COMMITTER_EMAIL": f"{name}@sim.test"}


GIT_RETRIES = 10  # a person runs a git command again after "index.lock exists"


def base_env(base: Path) -> dict[str, str]:
    """An isolated HOME and git configuration (identity, no system config, merges on pull)."""
    home = base / "home"
    home.mkdir(parents=True, exist_ok=True)
    (home / ".gitconfig").write_text(
        "[user]\n\tname = sim\n\temail = sim@sim.test\n[init]\n\tdefaultBranch = main\n"
        "[pull]\n\trebase = false\n[advice]\n\tdetachedHead = false\n")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("GIT_", "BRV_"))}
    env.update(HOME=str(home), GIT_CONFIG_NOSYSTEM="1", GIT_TERMINAL_PROMPT="0",
               PYTHONPATH=os.pathsep.join(filter(None, [str(REPO), env.get("PYTHONPATH")])))
    return env


def unmerged(world: World, clone: Clone) -> list[str]:
    """Repository paths git holds in conflict."""
    out = world.git(clone, "diff", "--name-only", "--diff-filter=U", "-z").out
    return [p for p in out.split("\0") if p]


def kind_of(path: str) -> str:
    return "generated" if path.rsplit("/", 1)[-1] in GENERATED else "entry"


def resolve_text(text: str, generated: bool) -> str:
    """A person's resolution: generated files and frontmatter keep ours; a body keeps both."""
    out: list[str] = []
    side = None
    dashes = 0
    for line in text.splitlines(keepends=True):
        mark = MARK.match(line)
        if mark:
            side = {"<": "ours", "|": "base", "=": "theirs", ">": None}[line[0]]
            continue
        if side is None and line.rstrip("\n") == "---":
            dashes += 1
        in_front = dashes < 2
        if side in (None, "ours") or (side == "theirs" and not generated and not in_front):
            out.append(line)
    return "".join(out)


def dirty(world: World, clone: Clone) -> bool:
    """Whether the tree has changes git has not committed."""
    spec = TREE.as_posix() if clone.in_project else "."
    return bool(world.git(clone, "status", "--porcelain", "--", spec).out.strip())


def git_dir_of(world: World, clone: Clone) -> Path:
    return Path(world.git(clone, "rev-parse", "--absolute-git-dir").out.strip())


def settle(world: World, clone: Clone, why: str) -> bool:
    """Resolves what a merge, rebase or stash pop left in conflict; True when all is settled.

    Every conflicted file is one manual step, counted by kind (true conflicts in entries,
    conflicts in brv's generated files).
    """
    paths = unmerged(world, clone)
    git_dir = git_dir_of(world, clone)
    rebasing = (git_dir / "rebase-merge").exists() or (git_dir / "rebase-apply").exists()
    merging = (git_dir / "MERGE_HEAD").exists()
    if not paths and not merging and not rebasing:
        return True
    if merging and not paths and not rebasing and never_applied(world, clone):
        # git said "Unable to write index." (a brv write held index.lock as the merge's
        # strategy took it) or refused otherwise: MERGE_HEAD without the merge in the index.
        # A person reads that, aborts the merge and pulls again later; committing on top
        # would record HEAD's tree as the merge (a teammate's changes dropped)
        world.add("merge git never applied (aborted, pulled again later)")
        world.git(clone, "merge", "--abort")
        return False
    if any(kind_of(p) == "entry" for p in paths):
        # a person follows brv's advice first: what brv decides (an entry MERGEd away on
        # one side, changed on the other) it folds; the rest is left, true conflicts
        ran = world.brv(clone, "vc", "resolve", "--json", killable=False)
        if ran.code not in (0, 1):  # 1: true conflicts left; anything else is a failure
            world.add("brv vc resolve failed")
        try:
            folded = len(json.loads(ran.out).get("folded", []))
        except ValueError:
            folded = 0
        if folded:
            world.add(f"entry conflicts folded by brv vc resolve ({why})", folded)
            paths = unmerged(world, clone)
    for path in paths:
        world.add(f"{kind_of(path)} conflicts")
        world.add(f"{kind_of(path)} conflicts ({why})")
        file = clone.work / path
        if file.is_file():
            text = file.read_text(encoding="utf-8", errors="replace")
            file.write_text(resolve_text(text, kind_of(path) == "generated"), encoding="utf-8")
            world.git(clone, "add", "--", path)
        else:
            world.git(clone, "rm", "-q", "--cached", "--ignore-unmatch", "--", path)
    if rebasing:
        done = _continue_rebase(world, clone)
        if done.code != 0 and "You must edit all merge conflicts" in done.out + done.err:
            # the agent wrote while the rebase stood at the conflict: git will not go on
            # with unstaged changes, and 'rebase --abort' would reset them away. The person
            # adds them to the commit being replayed (git's own advice), then goes on
            world.add("rebase went on with the agent's writes added")
            spec = TREE.as_posix() if clone.in_project else "."
            world.git(clone, "add", "-A", "--", spec)
            done = _continue_rebase(world, clone)
        if done.code != 0:
            world.add("stuck (rebase aborted)")
            world.git(clone, "rebase", "--abort")
            return False
        return settle(world, clone, why)
    if merging:
        done = world.git(clone, "commit", "-q", "--no-edit")
        if done.code != 0:
            world.add("stuck (merge aborted)")
            world.git(clone, "merge", "--abort")
            return False
        return True
    world.git(clone, "reset", "-q")  # a stash pop's conflicts: resolved, left unstaged
    world.git(clone, "stash", "drop", "-q")
    return True


def never_applied(world: World, clone: Clone) -> bool:
    """MERGE_HEAD present, nothing unmerged, the index still HEAD's tree, and MERGE_HEAD's
    commit not in HEAD: git stopped before its merge reached the index."""
    same = world.git(clone, "diff", "--cached", "--quiet", "HEAD").code == 0
    return same and world.git(clone, "merge-base", "--is-ancestor", "MERGE_HEAD",
                              "HEAD").code == 1


def _continue_rebase(world: World, clone: Clone) -> Ran:
    return world.run(["git", "-c", "core.editor=true", "rebase", "--continue"], clone.work,
                     env=world.clone_env(clone))


def recover(world: World, clone: Clone) -> None:
    """What the docs say after a kill: ``brv vc recover``, then settle what git left."""
    world.brv(clone, "vc", "recover", killable=False)
    settle(world, clone, "after a kill")
