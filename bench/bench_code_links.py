"""Benchmark ``brv stale`` on real history: precision and recall against git's own answer, and
its time at 25,000 entries and ~10,000 commits (issue 27, DESIGN budget: <= 2 s).

    python bench/bench_code_links.py MIRROR.git [MIRROR.git ...] [--entries 25000]
        [--back 10000] [--runs 5] [--work /tmp/links-core-bench] [--modes in-project,standalone]

Each MIRROR is a bare or mirror clone of a public repository with a long history (fetched,
never committed here). For each one the bench picks the first-parent commit E about ``--back``
commits before HEAD, writes ``--entries`` entries whose ``Files:`` lists name 1-3 files of E
(seeded), commits them on top of E, then replays the real history by merging the repository's
HEAD into that commit (in-project mode: knowledge and code in one graph), or commits them in the
nested knowledge repository dated just after E with the code at HEAD (standalone mode).

Ground truth is ``git diff -M -l0 E HEAD``: a linked file is stale when git says it was modified,
deleted or renamed between the two. ``brv stale --json`` is scored on (entry, file) pairs;
the reason agreement compares changed/deleted/renamed and the new path with git's.
Time: medians of real processes, interleaved with the floor (the same ``git log --raw -M``
walk alone), with the load average. Text links: every ``.rst``/``.md``/``.txt`` document of E
is read as an entry body; the paths found in it that resolve in the repository are the text
links, judged by the rules printed with the table (see docs/code-links.md).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from brv_vc.index.code_refs import extract  # noqa: E402
from brv_vc.services.init import init_project  # noqa: E402
from brv_vc.vc.git import HISTORY_FORMAT  # noqa: E402

ENV = {**os.environ, "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT),
                                                               os.environ.get("PYTHONPATH")])),
       "GIT_AUTHOR_NAME": "bench", "GIT_AUTHOR_EMAIL": "bench@example.com",
       "GIT_COMMITTER_NAME": "bench", "GIT_COMMITTER_EMAIL": "bench@example.com"}
NOHOOKS = ["-c", "core.hooksPath=/dev/null"]


def git(*args: str, cwd: Path, env: dict[str, str] | None = None) -> str:
    proc = subprocess.run(["git", *NOHOOKS, *args], cwd=cwd, env=env or ENV,
                          capture_output=True, text=True, check=False)
    if proc.returncode != 0:
        raise SystemExit(f"git {' '.join(args)} failed in {cwd}:\n{proc.stdout}{proc.stderr}")
    return proc.stdout


def pick_old_commit(mirror: Path, back: int) -> tuple[str, int]:
    """The first-parent commit with about ``back`` commits after it (fewer when history is short)."""
    chain = git("rev-list", "--first-parent", "HEAD", cwd=mirror).split()
    total = int(git("rev-list", "--count", "HEAD", cwd=mirror))
    want = min(back, int(total * 0.9))
    lo, hi = 0, len(chain) - 1
    while lo < hi:  # the count of E..HEAD grows along the first-parent chain
        mid = (lo + hi) // 2
        if int(git("rev-list", "--count", f"{chain[mid]}..HEAD", cwd=mirror)) < want:
            lo = mid + 1
        else:
            hi = mid
    return chain[lo], int(git("rev-list", "--count", f"{chain[lo]}..HEAD", cwd=mirror))


def entry_text(i: int, files: list[str]) -> str:
    listed = "\n".join(f"- {f}" for f in files)
    return (f"---\ntitle: Notes {i}\n---\n## Raw Concept\n**Task:**\nHow part {i} works\n\n"
            f"**Files:**\n{listed}\n\n## Narrative\nWhat we learnt about part {i}.\n")


def write_entries(tree: Path, files: list[str], count: int) -> dict[str, list[str]]:
    rng = random.Random(27)
    links: dict[str, list[str]] = {}
    for i in range(count):
        chosen = rng.sample(files, k=min(len(files), rng.choice((1, 1, 2, 3))))
        rel = f"d{i % 40}/t{(i // 40) % 25}/entry_{i}.md"
        path = tree / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(entry_text(i, chosen))
        links[rel] = chosen
    return links


def brv(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    # -P: the checked-out repository (click, requests...) must not shadow brv's imports
    return subprocess.run([sys.executable, "-P", "-m", "brv_vc", *args], cwd=cwd, env=ENV,
                          capture_output=True, text=True, check=False)


def prepare(mirror: Path, work: Path, mode: str, old: str, entries: int) -> dict[str, list[str]]:
    """Builds (once) the work repository of one mode; returns entry -> linked files."""
    marker = work / "bench-links.json"
    if marker.is_file():
        saved = json.loads(marker.read_text())
        if saved["old"] == old and saved["entries"] == entries:
            return dict(saved["links"])
    subprocess.run(["rm", "-rf", str(work)], check=True)
    head = git("rev-parse", "HEAD", cwd=mirror).strip()
    git("clone", "-q", "--shared", "--no-checkout", str(mirror), str(work), cwd=mirror.parent)
    files = [f for f in git("ls-tree", "-r", "--name-only", old, cwd=mirror).splitlines()
             if not f.startswith(".")]
    when = int(git("log", "-1", "--format=%ct", old, cwd=mirror)) + 60
    dated = {**ENV, "GIT_AUTHOR_DATE": f"@{when} +0000", "GIT_COMMITTER_DATE": f"@{when} +0000"}
    if mode == "in-project":
        git("checkout", "-q", "-b", "bench", old, cwd=work)
        init_project(work)
        assert brv("vc", "init", "--in-project", cwd=work).returncode == 0
        links = write_entries(work / ".brv/context-tree", files, entries)
        git("add", "-A", ".brv", cwd=work)
        git("commit", "-q", "-m", "knowledge written at E", cwd=work, env=dated)
        git("merge", "-q", "--no-ff", "--no-edit", "-m", "replay the real history", head, cwd=work)
    else:
        git("checkout", "-q", "-b", "bench", head, cwd=work)
        (work / ".git/info/exclude").write_text(".brv/\n")
        init_project(work)
        assert brv("vc", "init", cwd=work).returncode == 0
        tree = work / ".brv/context-tree"
        links = write_entries(tree, files, entries)
        git("add", "-A", cwd=tree)
        git("commit", "-q", "-m", "knowledge written at E", cwd=tree, env=dated)
    assert brv("index", cwd=work).returncode == 0
    marker.write_text(json.dumps({"old": old, "entries": entries, "links": links}))
    return links


ADDED: set[str] = set()  # paths git diff E HEAD lists as added (filled by ground_truth)


def ground_truth(mirror: Path, old: str) -> dict[str, tuple[str, str | None]]:
    out = subprocess.run(["git", "diff", "--name-status", "-M", "-l0", "-z", old, "HEAD"],
                         cwd=mirror, capture_output=True, text=True, check=True).stdout
    fields = out.split("\0")
    ADDED.clear()
    truth: dict[str, tuple[str, str | None]] = {}
    i = 0
    while i < len(fields) - 1:
        status = fields[i][:1]
        if status in "RC":
            truth[fields[i + 1]] = ("renamed" if status == "R" else "changed", fields[i + 2])
            i += 3
        else:
            if status in "MT":
                truth[fields[i + 1]] = ("changed", None)
            elif status == "D":
                truth[fields[i + 1]] = ("deleted", None)
            elif status == "A":
                ADDED.add(fields[i + 1])
            i += 2
    return truth


def score(links: dict[str, list[str]], truth: dict[str, tuple[str, str | None]],
          answer: dict[str, object], added: set[str]) -> dict[str, float]:
    expected = {(e, f) for e, files in links.items() for f in files if f in truth}
    got: set[tuple[str, str]] = set()
    agree = followed = 0
    for item in answer["entries"]:  # type: ignore[attr-defined]
        for f in item["files"]:
            got.add((item["entry"], f))
            if f in truth:
                reason, new = truth[f]
                mine = item["file_reasons"].get(f)
                same = mine == reason and item["renamed_to"].get(f) == new
                agree += same
                # git diff E HEAD sees a delete + add when a file moved, then changed beyond
                # 50% similarity; brv followed the move commit by commit: the path it names
                # must be one git added
                followed += (not same and mine == "renamed" and reason == "deleted"
                             and item["renamed_to"].get(f) in added)
    hit = len(expected & got)
    return {"pairs": len(expected), "precision": hit / len(got) if got else 1.0,
            "recall": hit / len(expected) if expected else 1.0,
            "reasons": agree / hit if hit else 1.0,
            "reasons_followed": (agree + followed) / hit if hit else 1.0}


def timing(work: Path, runs: int) -> dict[str, float]:
    """Medians, interleaved: the git log floor, brv stale with no cached walk, and warm."""
    floor_cmd = ["git", "log", "-z", "--raw", "-M", "--no-abbrev", "--topo-order",
                 f"--format={HISTORY_FORMAT}", "HEAD", "--"]
    cache = work / ".brv/state/code-history.bin"
    floors, cold, warm = [], [], []
    cpu: dict[str, list[float]] = {"floor": [], "cold": [], "warm": []}
    load = [os.getloadavg()[0]]

    def measured(kind: str, command: list[str]) -> float:
        # CPU seconds (user + sys of the process and its git children) do not depend on
        # how many other processes share the two cores; wall time does (load average)
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        proc = subprocess.run(command, cwd=work, env=ENV, stdout=subprocess.DEVNULL,
                              stderr=subprocess.PIPE, text=True, check=False)
        wall = time.perf_counter() - start
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        assert proc.returncode == 0, proc.stderr
        cpu[kind].append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
        return wall

    stale_cmd = [sys.executable, "-P", "-m", "brv_vc", "stale", "--json"]
    for _ in range(runs):
        floors.append(measured("floor", floor_cmd))
        cache.unlink(missing_ok=True)
        cold.append(measured("cold", stale_cmd))
        warm.append(measured("warm", stale_cmd))
        load.append(os.getloadavg()[0])
    return {"floor": statistics.median(floors), "brv": statistics.median(cold),
            "warm": statistics.median(warm), "load": statistics.median(load),
            **{f"cpu_{k}": statistics.median(v) for k, v in cpu.items()}}


def text_links(mirror: Path, old: str) -> list[tuple[str, str, str]]:
    """(document, path, how the text named it) of every text link found in E's documents."""
    files = git("ls-tree", "-r", "--name-only", old, cwd=mirror).splitlines()
    head = set(git("ls-tree", "-r", "--name-only", "HEAD", cwd=mirror).splitlines())
    known = set(files) | head
    dirs = {"/".join(p.split("/")[:i]) for p in known for i in range(1, p.count("/") + 1)}
    found = []
    for doc in files:
        if not doc.endswith((".rst", ".md", ".txt")) or doc.startswith("."):
            continue
        text = git("show", f"{old}:{doc}", cwd=mirror)
        for path, how in extract(text):
            if how == "text" and (path in known or path in dirs):
                found.append((doc, path, "slash" if "/" in path else "name"))
    return found


def message_links(mirror: Path, old: str) -> dict[str, list[int]]:
    """Text links in the commit messages of E..HEAD, judged by the commit's own changes.

    A message is knowledge written about a change, by people, with paths in backticks or
    plain: the paths brv finds in it that resolve in the repository are its text links. A
    link counts as true when the commit touched that file (or a file in that folder): a
    lower bound of precision, since a message may rightly name a file it did not change.
    Returns, per kind ("slash": a path with a folder, "name": a bare file name),
    [found, true].
    """
    out = subprocess.run(["git", "log", "--no-merges", "--name-only", "-z",
                          "--format=%x01%B%x02", f"{old}..HEAD"], cwd=mirror,
                         capture_output=True, text=True, check=True).stdout
    known = set(git("ls-tree", "-r", "--name-only", "HEAD", cwd=mirror).splitlines())
    known |= set(git("ls-tree", "-r", "--name-only", old, cwd=mirror).splitlines())
    commits = []
    for chunk in out.split("\x01")[1:]:
        message, _, names = chunk.partition("\x02")
        touched = {n.strip("\n") for n in names.split("\0") if n.strip("\n")}
        known |= touched
        commits.append((message, touched))
    dirs = {"/".join(p.split("/")[:i]) for p in known for i in range(1, p.count("/") + 1)}
    tally = {"slash": [0, 0], "name": [0, 0]}
    for message, touched in commits:
        folders = {"/".join(p.split("/")[:i]) for p in touched for i in range(1, p.count("/") + 1)}
        for path, how in extract(message):
            if how != "text" or (path not in known and path not in dirs):
                continue
            kind = "slash" if "/" in path else "name"
            tally[kind][0] += 1
            tally[kind][1] += path in touched or path in folders
    return tally


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("mirrors", nargs="+", type=Path)
    parser.add_argument("--entries", type=int, default=25_000)
    parser.add_argument("--back", type=int, default=10_000)
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--work", type=Path, default=Path("/tmp/links-core-bench"))
    parser.add_argument("--modes", default="in-project,standalone")
    parser.add_argument("--texts", type=Path, help="write the text links found to this JSON file")
    args = parser.parse_args()
    rows = []
    all_texts: list[tuple[str, str, str, str]] = []
    messages: list[tuple[str, dict[str, list[int]]]] = []
    for mirror in args.mirrors:
        mirror = mirror.resolve()
        name = mirror.parent.name if mirror.name in ("repo", ".git") else mirror.stem
        old, after = pick_old_commit(mirror, args.back)
        truth = ground_truth(mirror, old)
        for mode in args.modes.split(","):
            work = args.work / name / mode
            links = prepare(mirror, work, mode, old, args.entries)
            proc = brv("stale", "--json", cwd=work)
            assert proc.returncode == 0, proc.stderr
            answer = json.loads(proc.stdout)
            result = score(links, truth, answer, ADDED)
            times = timing(work, args.runs)
            rows.append({"repo": name, "mode": mode, "old": old[:9], "commits_after": after,
                         "walked": answer["commits_walked"], "entries": args.entries,
                         "stale_entries": len(answer["entries"]), **result, **times})
            print(json.dumps(rows[-1]), flush=True)
        texts = text_links(mirror, old)
        all_texts.extend((name, *t) for t in texts)
        tally = message_links(mirror, old)
        messages.append((name, tally))
        print(json.dumps({"repo": name, "message_links": tally}), flush=True)
    print()
    print("| repository | mode | commits after E (walked) | linked pairs stale per git | "
          "precision | recall | reasons agree (renames followed) | brv stale cold: wall (CPU) | "
          "git log floor: wall (CPU) | cold / floor, CPU | walk cached: wall (CPU) | load |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in rows:
        print(f"| {r['repo']} | {r['mode']} | {r['commits_after']:,} ({r['walked']:,}) | "
              f"{r['pairs']:,} | {r['precision']:.3f} | {r['recall']:.3f} | "
              f"{r['reasons']:.3f} ({r['reasons_followed']:.3f}) | "
              f"{r['brv']:.2f} s ({r['cpu_cold']:.2f} s) | {r['floor']:.2f} s "
              f"({r['cpu_floor']:.2f} s) | {r['cpu_cold'] / r['cpu_floor']:.1f}x | "
              f"{r['warm']:.2f} s ({r['cpu_warm']:.2f} s) | {r['load']:.1f} |")
    by_kind: dict[str, int] = {}
    for _, _, _, kind in all_texts:
        by_kind[kind] = by_kind.get(kind, 0) + 1
    print(f"\ntext links found in the documents at E: {len(all_texts)} ({by_kind})")
    print("\n| repository | text links in commit messages (with a folder) | touched by the commit "
          "| bare file names | touched |")
    print("|---|---|---|---|---|")
    for name, tally in messages:
        (sf, st), (nf, nt) = tally["slash"], tally["name"]
        print(f"| {name} | {sf:,} | {st / sf if sf else 1:.3f} | {nf:,} | "
              f"{nt / nf if nf else 1:.3f} |")
    if args.texts:
        args.texts.write_text(json.dumps(all_texts, indent=1))


if __name__ == "__main__":
    main()
