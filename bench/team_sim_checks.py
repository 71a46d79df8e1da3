"""The end of ``bench/team_sim.py``: every clone syncs until quiet, then the checks.

- converged: every clone at the remote's commit, clean, with the same knowledge files;
- lost: a token the ledger expects missing (or a deleted entry back);
- generated-file conflicts: markers in brv's generated files (``context.md``,
  ``.gitignore``, ``.gitattributes``) during the run or at its end;
- search: ``brv search TOKEN --json`` in every clone finds the entry of each live token;
- audit: each clone's curate log (``curate_log`` in ``.brv/state/brv.db``) says ``success``
  for exactly the operations its agent was told succeeded.
"""

from __future__ import annotations

import json
import sqlite3
import sys

from bench.team_sim_agents import Ledger
from bench.team_sim_people import back_on_main, leftover_branches, merge_branch
from bench.team_sim_world import GENERATED, MARK, TREE, Clone, World, dirty, recover, settle

SEARCH = """
import json, sys
from click.testing import CliRunner
from brv_vc.cli.main import cli
root, pairs = sys.argv[1], json.load(sys.stdin)
runner, misses = CliRunner(), []
for token, path in pairs:
    out = runner.invoke(cli, ["-C", root, "search", token, "--json", "--limit", "50",
                              "--no-record"]).output
    try:
        hits = [r["path"] for r in json.loads(out)["results"]]
    except (ValueError, KeyError):
        hits = []
    if path not in hits:
        misses.append([token, path])
print(json.dumps(misses))
"""


def converge(world: World, passes: int = 8) -> int:
    """Each clone commits what is left and syncs, in turn, until a pass changes nothing."""
    for done in range(1, passes + 1):
        for clone in world.clones:
            settle(world, clone, "the final sync")
            if done == 1 and world.git(clone, "stash", "list").out.strip():
                # a pop git refused in a round (files it would not overwrite): a manual step.
                # Not popped here: its stale files would bring deleted entries back; a write
                # that only the stash holds is counted lost
                world.add("stashes left at the end")
            world.brv(clone, "vc", "add", killable=False)
            world.brv(clone, "vc", "commit", "-m", "final", killable=False)
            back_on_main(world, clone)
            for branch in leftover_branches(world, clone):
                world.add("leftover branch merged")
                merge_branch(world, clone, branch)
            ran = world.brv(clone, "vc", "sync", "--max-wait", "0.5", killable=False)
            if ran.code != 0:
                world.add("final sync stopped")
                recover(world, clone)
        remote = world.run(["git", "ls-remote", world.url, "refs/heads/main"],
                           world.base).out.split()
        tip = remote[0] if remote else None
        if all(world.git(c, "rev-parse", "HEAD").out.strip() == tip and not dirty(world, c)
               for c in world.clones):
            return done
    return passes + 1


def snapshot(world: World, clone: Clone) -> dict[str, str]:
    """Tree path -> text of every knowledge file git sees (derived files are ignored)."""
    spec = TREE.as_posix() if clone.in_project else "."
    listed = world.git(clone, "ls-files", "-co", "--exclude-standard", "-z", "--", spec).out
    out = {}
    for path in sorted({p for p in listed.split("\0") if p}):
        file = clone.work / path
        if file.is_file():
            rel = path.removeprefix(TREE.as_posix() + "/") if clone.in_project else path
            out[rel] = file.read_text(encoding="utf-8", errors="replace")
    return out


def _marked(text: str) -> bool:
    return any(MARK.match(line) for line in text.splitlines())


def lost(ledger: Ledger, files: dict[str, str]) -> tuple[int, int, list[str]]:
    """(lost tokens, deleted entries back, examples) against one converged clone."""
    missing, back, examples = 0, 0, []
    for path, alive in sorted(ledger.alive.items()):
        text = files.get(path)
        if not alive:
            if text is not None:
                back += 1
                examples.append(f"deleted but present: {path}")
            continue
        tokens = [t for toks in ledger.sections.get(path, {}).values() for t in toks]
        gone = [t for t in tokens if text is None or t not in text]
        contested = ledger.contested.get(path, set())
        if contested and (text is None or not any(t in text for t in contested)):
            gone.append(f"one of {len(contested)} Status tokens")
        if gone:
            missing += len(gone)
            examples.append(f"{path}: {'missing file' if text is None else 'missing'} "
                            f"{', '.join(sorted(gone)[:3])}")
    return missing, back, examples


def search_misses(world: World, clone: Clone, ledger: Ledger,
                  files: dict[str, str]) -> list[str]:
    """``brv search TOKEN`` in ``clone``: the live entries it did not find by a token they hold.

    Only tokens in the converged ``files``: a lost one is counted as lost, not again here.
    """
    pairs = sorted((token, path) for path, secs in ledger.sections.items()
                   if ledger.alive.get(path) for toks in secs.values()
                   for token in sorted(toks)[:1] if token in files.get(path, ""))
    ran = world.run([sys.executable, "-c", SEARCH, str(clone.root)], clone.root,
                    stdin=json.dumps(pairs), env=world.clone_env(clone))
    try:
        return [f"c{clone.index}: {path} ({token})" for token, path in json.loads(ran.out)]
    except ValueError:
        world.add("search check failed to run")
        return [f"c{clone.index}: {path} ({token})" for token, path in pairs]


def audit_mismatches(clone: Clone, ledger: Ledger) -> int:
    """Operations whose outcome the clone's curate log tells otherwise than its agent was told."""
    db = clone.root / ".brv" / "state" / "brv.db"
    told = ledger.reported.get(clone.index, {})
    if not db.is_file():
        return sum(told.values())
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT reason, status FROM curate_log").fetchall()
    except sqlite3.Error:
        rows = []
    finally:
        conn.close()
    logged = {reason for reason, status in rows if status == "success"}
    return (sum(1 for reason, ok in told.items() if ok and reason not in logged)
            + sum(1 for reason, ok in told.items() if not ok and reason in logged))


def check(world: World, ledger: Ledger) -> dict[str, object]:
    """The figures of one mode after ``converge``."""
    passes = converge(world)
    snaps = [snapshot(world, c) for c in world.clones]
    diverged = sum(1 for s in snaps[1:] if s != snaps[0])
    missing, back, examples = lost(ledger, snaps[0])
    gen_left = sum(1 for s in snaps for p, t in s.items()
                   if p.rsplit("/", 1)[-1] in GENERATED and _marked(t))
    entry_left = sum(1 for s in snaps for p, t in s.items()
                     if p.rsplit("/", 1)[-1] not in GENERATED and _marked(t))
    stats = world.stats
    unfound = [miss for c in world.clones for miss in search_misses(world, c, ledger, snaps[0])]
    return {
        "mode": world.mode,
        "writes": ledger.writes,
        "lost": missing + back,
        "diverged": diverged + (passes > 8),
        "generated conflicts": stats["generated conflicts"] + stats["forge conflicts (generated)"]
        + gen_left,
        "true conflicts": stats["entry conflicts"] + stats["forge conflicts (entry)"],
        "markers left": entry_left,
        "search misses": len(unfound),
        "audit mismatches": sum(audit_mismatches(c, ledger) for c in world.clones),
        "kills": stats["kills"],
        "final passes": passes,
        "examples": examples[:12],
        "unfound": unfound[:12],
        "events": dict(sorted(stats.items())),
    }
