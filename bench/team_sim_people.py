"""The people of ``bench/team_sim.py``: each round one commits what its agent wrote and shares
it one way or another, with ``brv vc`` or with plain git, or through a forge that merges
branches with plain git (no merge drivers), as GitHub's merge button does."""

from __future__ import annotations

import re

from bench.team_sim_world import TREE, Clone, Ran, World, dirty, kind_of, recover, settle, unmerged

ACTIONS = {  # action: weight
    "brv vc sync": 4, "brv vc pull + push": 2, "git pull + push": 2, "git pull --rebase": 1,
    "git stash + pull + pop": 1, "branch and back": 1, "forge merge": 1,
}


def _vc(world: World, clone: Clone, *args: str) -> bool:
    """A ``brv vc`` command; after a kill, the documented recovery. True when it succeeded."""
    ran = world.brv(clone, "vc", *args)
    saw_unwritable_index(world, ran)
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


def saw_unwritable_index(world: World, ran: Ran) -> None:
    """Counts git's "Unable to write index." (a person sees it; ``settle`` aborts that merge)."""
    if "Unable to write index" in ran.out + ran.err:
        world.add("git said 'Unable to write index'")


def git_pull(world: World, clone: Clone, *flags: str) -> None:
    ran = world.git(clone, "pull", "-q", "--no-edit", *flags)
    saw_unwritable_index(world, ran)
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
        pop(world, clone)


def pop(world: World, clone: Clone) -> None:
    """``git stash pop``, and what a careful person does when git refuses it.

    - "could not restore untracked files from stash": git applied the tracked changes and
      kept the stash; a new file of the stash is already there (a new folder's generated
      ``context.md`` a pull brought, same bytes). The person restores the stash's new
      files that are missing, checks the others are the same, and drops the stash.
    - "Your local changes ... would be overwritten": git applied nothing; the person
      commits the agent's newer writes first and pops again.
    """
    for _ in range(3):
        popped = world.git(clone, "stash", "pop", "-q")
        if popped.code == 0:
            return
        world.add("git stash pop failed")
        if "could not restore untracked files" in popped.err:
            world.add("git stash pop: untracked files restored by hand")
            if not _restore_untracked(world, clone):
                return  # a new file differs from the one there: the stash is kept (counted)
            if not unmerged(world, clone):
                world.git(clone, "stash", "drop", "-q")
            settle(world, clone, "git stash pop")
            return
        if unmerged(world, clone):
            settle(world, clone, "git stash pop")  # resolved, the stash dropped
            return
        commit(world, clone, "before git stash pop")
    world.add("git stash pop given up (stash kept)")


def _restore_untracked(world: World, clone: Clone) -> bool:
    """The stash's new files (its third parent) put back where missing; False if one differs."""
    listed = world.git(clone, "ls-tree", "-r", "-z", "--name-only", "stash@{0}^3").out
    same = True
    for path in (p for p in listed.split("\0") if p):
        if not (clone.work / path).exists():
            world.git(clone, "checkout", "stash@{0}^3", "--", path)
            continue
        theirs = world.git(clone, "rev-parse", f"stash@{{0}}^3:{path}").out.strip()
        if world.git(clone, "hash-object", "--", path).out.strip() != theirs:
            world.add(f"{kind_of(path)} conflicts (git stash pop: a new file differs)")
            same = False
    return same


def _leave_branch(world: World, clone: Clone, name: str) -> bool:
    """Commits on ``name`` until nothing is left, then ``git checkout main``; True when there.

    A person leaves a branch clean: a write the agent made after the commit would otherwise
    go with them (a deletion of a file main lacks vanishes, and the branch brings it back).
    """
    for tries in range(5):
        if tries or dirty(world, clone):
            commit(world, clone, f"{name}: more")
        if dirty(world, clone):
            world.add("branch still dirty after a commit (agent writing)")
            continue
        if world.git(clone, "checkout", "-q", "main").code == 0:
            return True
        world.add("git checkout main refused (local changes)")
    return False


def merged(world: World, clone: Clone, name: str) -> bool:
    return world.git(clone, "merge-base", "--is-ancestor", name, "HEAD").code == 0


def back_on_main(world: World, clone: Clone) -> None:
    """A clone left on a side branch (its person was stopped mid-way) merges it into main.

    What the person does on coming back: the branch's work goes into main; the branch is
    deleted only once main holds it.
    """
    branch = world.git(clone, "rev-parse", "--abbrev-ref", "HEAD").out.strip()
    if branch in ("main", "HEAD", ""):
        return
    world.add("back on main (a side branch left mid-way)")
    if _leave_branch(world, clone, branch):
        merge_branch(world, clone, branch)


def merge_branch(world: World, clone: Clone, name: str) -> None:
    """``git merge name`` into main (settling conflicts, committing the agent's writes that
    stop it), then the branch deleted once merged."""
    for _ in range(3):
        ran = world.git(clone, "merge", "-q", "--no-edit", name)
        saw_unwritable_index(world, ran)
        if ran.code == 0:
            break
        world.add("git merge of a branch failed")
        if not settle(world, clone, "git merge of a branch") or not unmerged(world, clone):
            commit(world, clone, f"before merging {name}")
    if merged(world, clone, name):
        world.git(clone, "branch", "-q", "-D", name)
    else:
        world.add("branch kept (not merged yet)")


def _branch_and_back(world: World, clone: Clone, name: str) -> None:
    if world.git(clone, "checkout", "-q", "-b", name).code != 0:
        world.add("git checkout -b failed")
        return
    commit(world, clone, f"{name}: work on a branch")
    if _leave_branch(world, clone, name):
        merge_branch(world, clone, name)


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
    if not _leave_branch(world, clone, name):
        world.git(clone, "push", "-q", "origin", f"HEAD:refs/heads/{name}")
        return  # still on the branch: the next round brings it back (back_on_main)
    world.git(clone, "push", "-q", "origin", f"{name}:refs/heads/{name}")  # what 'more' added
    if not forge_merge(world, name):
        # the forge could not merge: the person merges the branch with brv and pushes
        world.add("forge fallback (merged with brv)")
        _vc(world, clone, "pull")
        for _ in range(3):
            if _vc(world, clone, "merge", name) or merged(world, clone, name):
                break
            commit(world, clone, f"before merging {name}")  # the agent's writes stopped it
        _vc(world, clone, "sync", "--max-wait", "1")
    if merged(world, clone, name) or forge_holds(world, clone, name):
        world.run(["git", "push", "-q", "origin", "--delete", name], clone.work,
                  env=world.clone_env(clone))
        world.git(clone, "branch", "-q", "-D", name)
    else:
        world.add("branch kept (not merged yet)")


def forge_holds(world: World, clone: Clone, name: str) -> bool:
    """Whether the remote's main holds the branch (the forge merged it)."""
    world.git(clone, "fetch", "-q", "origin")
    return world.git(clone, "merge-base", "--is-ancestor", name, "origin/main").code == 0


def leftover_branches(world: World, clone: Clone) -> list[str]:
    """Local branches other than main that main does not hold yet."""
    out = world.git(clone, "for-each-ref", "--format=%(refname:short)", "refs/heads").out
    return [b for b in out.split() if b != "main" and not merged(world, clone, b)]


def person_turn(world: World, clone: Clone, round_no: int) -> None:
    """One person's round: commit, then share it by one of ``ACTIONS``."""
    rng = clone.rng
    action = rng.choices(list(ACTIONS), weights=list(ACTIONS.values()))[0]
    world.add(f"action: {action}")
    name = f"c{clone.index}-r{round_no}"
    back_on_main(world, clone)  # a person notices a branch left from an earlier round
    for branch in leftover_branches(world, clone):
        world.add("leftover branch merged")
        merge_branch(world, clone, branch)
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
