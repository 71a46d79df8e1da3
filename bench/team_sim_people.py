"""The people of ``bench/team_sim.py``: each round one commits what its agent wrote and shares
it one way or another, with ``brv vc`` or with plain git, or through a forge that merges
branches with plain git (no merge drivers), as GitHub's merge button does."""

from __future__ import annotations

import re

from bench.team_sim_world import TREE, Clone, World, kind_of, recover, settle

ACTIONS = {  # action: weight
    "brv vc sync": 4, "brv vc pull + push": 2, "git pull + push": 2, "git pull --rebase": 1,
    "git stash + pull + pop": 1, "branch and back": 1, "forge merge": 1,
}


def _vc(world: World, clone: Clone, *args: str) -> bool:
    """A ``brv vc`` command; after a kill, the documented recovery. True when it succeeded."""
    ran = world.brv(clone, "vc", *args)
    if ran.killed:
        recover(world, clone)
        return False
    if ran.code != 0 and args[0] in ("pull", "sync", "merge"):
        why = "conflict" if "Automatic merge failed" in ran.out or "Sync stopped" in ran.out \
            else f"failed: {gist(ran.err)}"
        world.add(f"brv vc {args[0]} {why}")
        if "gave up" in ran.err:
            world.add("brv vc sync gave up")
        settle(world, clone, f"brv vc {args[0]}")
    elif ran.code != 0 and args[0] == "push":
        world.add("brv vc push rejected" if "rejected" in ran.err
                  else f"brv vc push failed: {gist(ran.err)}")
    return ran.code == 0


def gist(err: str) -> str:
    """The first error line, its paths and numbers blurred, to count failures by kind."""
    line = next((x for x in err.splitlines() if x.startswith("brv: error:")), err.strip()[:80])
    line = re.sub(r"'[^']*'|\S*/\S*|\d+", "_", line.removeprefix("brv: error: "))
    return line[:90]


def commit(world: World, clone: Clone, message: str) -> None:
    """``brv vc add`` and ``brv vc commit`` (nothing to commit is fine)."""
    if _vc(world, clone, "add"):
        _vc(world, clone, "commit", "-m", message)


def git_pull(world: World, clone: Clone, *flags: str) -> None:
    ran = world.git(clone, "pull", "-q", "--no-edit", *flags)
    if ran.code != 0:
        world.add(f"git pull {' '.join(flags)} failed".replace("  ", " "))
        settle(world, clone, f"git pull {' '.join(flags)}".strip())


def git_push(world: World, clone: Clone) -> None:
    """``git push``, and as a person does after a rejection: pull, push again (3 tries)."""
    for _ in range(3):
        if world.git(clone, "push", "-q", "origin", "HEAD:main").code == 0:
            return
        world.add("git push rejected")
        git_pull(world, clone)
    world.add("git push given up (next round)")


def _stash(world: World, clone: Clone) -> None:
    spec = TREE.as_posix() if clone.in_project else "."
    before = world.git(clone, "stash", "list").out
    world.git(clone, "stash", "push", "-q", "--include-untracked", "--", spec)
    stashed = world.git(clone, "stash", "list").out != before
    git_pull(world, clone)
    if stashed:
        popped = world.git(clone, "stash", "pop", "-q")
        if popped.code != 0:
            world.add("git stash pop failed")
            settle(world, clone, "git stash pop")


def _branch_and_back(world: World, clone: Clone, name: str) -> None:
    if world.git(clone, "checkout", "-q", "-b", name).code != 0:
        world.add("git checkout -b failed")
        return
    commit(world, clone, f"{name}: work on a branch")
    if world.git(clone, "checkout", "-q", "main").code != 0:
        world.add("git checkout main refused (local changes)")
        commit(world, clone, f"{name}: more")
        world.git(clone, "checkout", "-q", "main")
    if world.git(clone, "merge", "-q", "--no-edit", name).code != 0:
        world.add("git merge of a branch failed")
        settle(world, clone, "git merge of a branch")
    world.git(clone, "branch", "-q", "-D", name)


def forge_merge(world: World, branch: str) -> bool:
    """Merges ``origin/branch`` into main in the forge's plain clone (no brv, no drivers)."""
    forge = world.base / "forge"
    with world.forge_lock:
        for _ in range(5):
            world.run(["git", "fetch", "-q", "--prune", "origin"], forge)
            world.run(["git", "checkout", "-q", "-B", "main", "origin/main"], forge)
            world.run(["git", "reset", "-q", "--hard", "origin/main"], forge)
            merged = world.run(["git", "merge", "-q", "--no-edit", f"origin/{branch}"], forge)
            if merged.code != 0:
                out = world.run(["git", "diff", "--name-only", "--diff-filter=U", "-z"], forge)
                for path in (p for p in out.out.split("\0") if p):
                    world.add(f"forge conflicts ({kind_of(path)})")
                world.run(["git", "merge", "--abort"], forge)
                return False
            if world.run(["git", "push", "-q", "origin", "main"], forge).code == 0:
                world.run(["git", "push", "-q", "origin", "--delete", branch], forge)
                world.add("forge merges")
                return True
            world.add("forge push rejected")
    return False


def _forge(world: World, clone: Clone, name: str) -> None:
    if world.git(clone, "checkout", "-q", "-b", name).code != 0:
        world.add("git checkout -b failed")
        return
    commit(world, clone, f"{name}: a pull request")
    world.git(clone, "push", "-q", "origin", f"HEAD:refs/heads/{name}")
    if world.git(clone, "checkout", "-q", "main").code != 0:
        commit(world, clone, f"{name}: more")
        world.git(clone, "push", "-q", "origin", f"HEAD:refs/heads/{name}")
        world.git(clone, "checkout", "-q", "main")
    if not forge_merge(world, name):
        # the forge could not merge: the person merges the branch with brv and pushes
        world.add("forge fallback (merged with brv)")
        _vc(world, clone, "pull")
        _vc(world, clone, "merge", name)
        _vc(world, clone, "sync", "--max-wait", "1")
        world.run(["git", "push", "-q", "origin", "--delete", name], clone.work,
                  env=world.clone_env(clone))
    world.git(clone, "branch", "-q", "-D", name)


def person_turn(world: World, clone: Clone, round_no: int) -> None:
    """One person's round: commit, then share it by one of ``ACTIONS``."""
    rng = clone.rng
    action = rng.choices(list(ACTIONS), weights=list(ACTIONS.values()))[0]
    world.add(f"action: {action}")
    name = f"c{clone.index}-r{round_no}"
    if action == "git stash + pull + pop":
        _stash(world, clone)
    if action == "branch and back":
        _branch_and_back(world, clone, f"side-{name}")
    if action == "forge merge":
        _forge(world, clone, f"feat-{name}")
        return
    commit(world, clone, f"{name}: knowledge")
    if action in ("brv vc sync", "branch and back", "git stash + pull + pop"):
        _vc(world, clone, "sync", "--max-wait", "1")
    elif action == "brv vc pull + push":
        if _vc(world, clone, "pull"):
            _vc(world, clone, "push")
    elif action == "git pull + push":
        git_pull(world, clone)
        git_push(world, clone)
    else:
        git_pull(world, clone, "--rebase")
        git_push(world, clone)
