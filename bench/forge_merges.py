"""Which pairs of curate-made branches a forge's merge button (plain git, no drivers) conflicts on.

    python bench/forge_merges.py [--seed 7] [--keep DIR]

A forge merges a pull request with git's own text merge: it never runs a repository's merge
drivers. For each pair below, one base commit of a small in-project tree (seeded text) gets
two branches, each made by ``brv curate`` (a different ``BRV_NOW`` on each side, as two people
on two days), then branch b is merged into branch a twice, from the same commits:

- **plain git**: ``git merge`` in a fresh clone, where no ``merge.brv.driver`` is configured
  (the committed ``.gitattributes`` names a driver git does not know, so git merges text);
- **brv driver**: the same merge where ``brv vc`` configured its drivers.

Prints a markdown table: for plain git, each conflicted file with git's status and what its
conflict hunks hold (``updatedAt``, other frontmatter keys, ``body``); for brv's driver,
clean or the files left in conflict.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TREE = ".brv/context-tree"
FOLDER = "payments/ledger"
WORDS = ("ledger posting balance refund settlement payout currency invoice account journal "
         "reconcile batch audit fee dispute chargeback rounding cutoff window rate").split()

Side = Callable[["Lab"], None]


class Lab:
    """One repository and the brv/git commands the pairs run in it."""

    def __init__(self, root: Path, rng: random.Random) -> None:
        self.root = root
        self.work = root  # where brv and git run: the root, or one side's own clone
        self.rng = rng
        self.now = "2026-01-05T09:00:00Z"

    def env(self) -> dict[str, str]:
        env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
        env.update(PYTHONPATH=str(ROOT), BRV_NOW=self.now, GIT_CONFIG_NOSYSTEM="1",
                   GIT_AUTHOR_NAME="bench", GIT_AUTHOR_EMAIL="bench@example.com",
                   GIT_COMMITTER_NAME="bench", GIT_COMMITTER_EMAIL="bench@example.com",
                   HOME=str(self.root.parent))
        return env

    def run(self, *cmd: str, cwd: Path | None = None, check: bool = True) -> str:
        done = subprocess.run(cmd, cwd=cwd or self.work, env=self.env(), capture_output=True,
                              text=True, check=False)
        if check and done.returncode:
            raise SystemExit(f"{' '.join(cmd)} failed:\n{done.stdout}{done.stderr}")
        return done.stdout

    def git(self, *args: str, cwd: Path | None = None, check: bool = True) -> str:
        return self.run("git", *args, cwd=cwd, check=check)

    def brv(self, *args: str) -> str:
        return self.run(sys.executable, "-m", "brv_vc", *args)

    def text(self, n: int) -> str:
        return " ".join(self.rng.choice(WORDS) for _ in range(n)).capitalize() + "."

    def update(self, entry: str, *args: str) -> None:
        self.brv("curate", "update", f"{FOLDER}/{entry}", *args, "--reason", "bench")

    def add(self, folder: str, title: str) -> None:
        self.brv("curate", "add", folder, "--title", title, "--content", self.text(12),
                 "--tags", "ledger", "--reason", "bench")


def _base(lab: Lab) -> None:
    """Three entries in one folder, each with the seed's three sections, tags and links.

    Double entry and Settlement link to Refunds, so a MERGE of Refunds into Double entry
    relinks Settlement (a link fix: its updatedAt stays).
    """
    for title, others in (("Double entry", "refunds.md"), ("Refunds", "settlement.md"),
                          ("Settlement", "refunds.md")):
        body = (f"## Raw Concept\n**Task:**\n{lab.text(8)}\n\n**Files:**\n- src/ledger.py\n\n"
                f"## Narrative\n{lab.text(30)}\n\n### Rules\n- {lab.text(6)}\n- {lab.text(6)}\n\n"
                f"## Facts\n- **posting**: {lab.text(8)} [convention]\n- {lab.text(8)} [project]")
        lab.brv("curate", "add", FOLDER, "--title", title, "--content", body,
                "--summary", lab.text(8), "--tags", "ledger,money",
                "--keywords", "posting,balance", "--related", f"{FOLDER}/{others}",
                "--reason", "bench")


def _section(name: str) -> Side:
    return lambda lab: lab.update("double_entry.md", "--content", f"## {name}\n{lab.text(20)}")


def _tags(tag: str) -> Side:
    return lambda lab: lab.update("double_entry.md", "--tags", f"ledger,money,{tag}")


def _related(target: str) -> Side:
    return lambda lab: lab.update("double_entry.md", "--related",
                                  f"{FOLDER}/refunds.md,{FOLDER}/{target}")


def _existing(section: str) -> Side:
    return lambda lab: lab.update("double_entry.md", "--content",
                                  f"## {section}\n{lab.text(25)}")


def _merge_refunds(lab: Lab) -> None:
    lab.brv("curate", "merge", f"{FOLDER}/refunds.md", "--into", f"{FOLDER}/double_entry.md",
            "--reason", "bench")


def _delete_settlement(lab: Lab) -> None:
    lab.brv("curate", "delete", f"{FOLDER}/settlement.md", "--reason", "bench")


# (row name, side a, side b, what brv's driver is expected to do)
PAIRS: list[tuple[str, Side, Side]] = [
    ("new section in one entry, a different one each side",
     _section("Audit trail"), _section("Rollout")),
    ("tags added, a different tag each side", _tags("audit"), _tags("payouts")),
    ("summary changed on one side, a new section on the other",
     lambda lab: lab.update("double_entry.md", "--summary", lab.text(9)), _section("Rollout")),
    ("relations added, a different link each side", _related("settlement.md"),
     _related("chargebacks.md")),
    ("new entries in one folder", lambda lab: lab.add(FOLDER, "Chargebacks"),
     lambda lab: lab.add(FOLDER, "Disputes")),
    ("new folders (the same new folder each side)",
     lambda lab: lab.add("payments/payouts", "Payout batches"),
     lambda lab: lab.add("payments/payouts", "Payout fees")),
    ("MERGE on one side, UPDATE of the target on the other", _merge_refunds,
     _section("Rollout")),
    ("MERGE on one side, UPDATE of the source on the other", _merge_refunds,
     lambda lab: lab.update("refunds.md", "--content", f"## Rollout\n{lab.text(20)}")),
    ("MERGE on one side (relinks a third entry), UPDATE of that entry's tags on the other",
     _merge_refunds, lambda lab: lab.update("settlement.md", "--tags", "ledger,money,audit")),
    ("MERGE on one side (relinks a third entry), a link added to it on the other",
     _merge_refunds, lambda lab: lab.update(
         "settlement.md", "--related", f"{FOLDER}/refunds.md,{FOLDER}/chargebacks.md")),
    ("DELETE of one entry, UPDATE of another", _delete_settlement, _section("Rollout")),
    ("UPDATE of different existing sections", _existing("Facts"), _existing("Raw Concept")),
    ("UPDATE of the same section two ways (a true conflict)", _existing("Narrative"),
     _existing("Narrative")),
]

_KEY = re.compile(r"^([A-Za-z_]+):")


def _hunks(text: str) -> list[str]:
    """What each conflict block of a file holds: its frontmatter keys, or 'body'."""
    found, lines, i = [], text.splitlines(), 0
    while i < len(lines):
        if lines[i].startswith("<<<<<<<"):
            j = i + 1
            while not lines[j].startswith(">>>>>>>"):
                j += 1
            inside = [ln for ln in lines[i + 1:j]
                      if not ln.startswith(("=======", "|||||||")) and ln.strip() not in ("", "---")]
            keys = [m.group(1) for ln in inside if (m := _KEY.match(ln))]
            found.append("+".join(dict.fromkeys(keys)) if inside and len(keys) == len(inside)
                         else "body")
            i = j
        i += 1
    return found


def _conflicts(lab: Lab, clone: Path) -> str:
    """The conflicted files of a stopped merge in ``clone`` and what their hunks hold."""
    status = lab.git("status", "--porcelain", "-z", "--untracked-files=no", cwd=clone)
    out = []
    for item in filter(None, status.split("\0")):
        code, path = item[:2], item[3:]
        if code not in ("UU", "AA", "UD", "DU", "AU", "UA", "DD"):
            continue
        name = path.removeprefix(TREE + "/").removeprefix(FOLDER + "/")
        if code in ("UU", "AA"):
            hunks = _hunks((clone / path).read_text())
            kind = "add/add" if code == "AA" else "modify/modify"
            out.append(f"`{name}` {kind}: {', '.join(hunks) or 'no markers'}")
        else:
            out.append(f"`{name}` modify/delete")
    return "; ".join(out) or "conflict (no file)"


def _block_lists(text: str) -> str:
    """Idea: list fields in block style, one item a line, sorted (frontmatter lines only)."""
    head, sep, body = text.partition("\n---\n")
    out = []
    for line in head.split("\n"):
        key, colon, raw = line.partition(": ")
        if colon and raw.startswith("["):
            items = sorted(json.loads(raw))
            out.append(f"{key}:" + "".join(f"\n  - {json.dumps(i)}" for i in items)
                       if items else line)
        else:
            out.append(line)
    return "\n".join(out) + sep + body


def _same_updated_at(text: str) -> str:
    """Hypothesis: both sides wrote the same updatedAt (what the timestamp alone costs)."""
    return re.sub(r"(?m)^updatedAt: .*$", 'updatedAt: "2026-01-07T11:30:00Z"', text)


IDEAS: list[tuple[str, Callable[[str], str]]] = [
    ("as written", lambda text: text),
    ("lists one item a line, sorted", _block_lists),
    ("same updatedAt both sides", _same_updated_at),
    ("both", lambda text: _same_updated_at(_block_lists(text))),
]


def ideas(lab: Lab, clone: Path) -> list[int]:
    """Conflict blocks left by ``git merge-file`` in the files both sides modified, per idea.

    The base, a and b blobs of each such file, rewritten as an idea would have written them.
    """
    status = lab.git("status", "--porcelain", "-z", "--untracked-files=no", cwd=clone)
    paths = [item[3:] for item in filter(None, status.split("\0")) if item[:2] == "UU"]
    counts = []
    for _, transform in IDEAS:
        total = 0
        for path in paths:
            files = []
            for rev in ("a", "main", "b"):
                blob = clone.parent / f"idea.{rev}"
                blob.write_text(transform(lab.git("show", f"{rev}:{path}", cwd=clone)))
                files.append(str(blob))
            done = subprocess.run(["git", "merge-file", "-p", *files], capture_output=True,
                                  text=True, check=False)
            total += done.returncode
        counts.append(total)
    return counts


def _merge(lab: Lab, clone: Path) -> tuple[bool, str]:
    lab.git("checkout", "-q", "a", cwd=clone)
    done = subprocess.run(["git", "merge", "--no-edit", "-q", "b"], cwd=clone, env=lab.env(),
                          capture_output=True, text=True, check=False)
    if done.returncode == 0:
        return True, "clean"
    return False, _conflicts(lab, clone)


Row = tuple[str, bool, str, bool, str, list[int]]


def measure(seed: int, work: Path) -> list[Row]:
    """Every pair's plain-git and brv-driver merge; rows of (name, clean, what, clean, what)."""
    rows = []
    for number, (name, side_a, side_b) in enumerate(PAIRS):
        lab = Lab(work / f"pair{number}" / "repo", random.Random(seed * 1000 + number))
        lab.root.mkdir(parents=True)
        lab.git("init", "-q", "-b", "main")
        (lab.root / "app.py").write_text("print('ledger')\n")
        lab.brv("vc", "init", "--in-project", "--no-hooks")
        _base(lab)
        lab.git("add", "-A")
        lab.git("commit", "-qm", "base")
        for branch, side, now in (("a", side_a, "2026-01-06T10:00:00Z"),
                                  ("b", side_b, "2026-01-07T11:30:00Z")):
            # each side in its own clone, as two people: a folder one side made never
            # lingers (ignored derived files keep it) in the other's work tree
            lab.work = lab.root.parent / f"side_{branch}"
            lab.git("clone", "-q", str(lab.root), str(lab.work), cwd=lab.root)
            lab.now = now
            side(lab)
            lab.git("add", "-A")
            lab.git("commit", "-qm", f"side {branch}")
            lab.work = lab.root
            lab.git("fetch", "-q", str(lab.root.parent / f"side_{branch}"), f"HEAD:{branch}")
        plain = lab.root.parent / "plain"
        lab.git("clone", "-q", str(lab.root), str(plain))
        lab.git("checkout", "-q", "-B", "a", "origin/a", cwd=plain)
        lab.git("branch", "-q", "-f", "b", "origin/b", cwd=plain)
        lab.git("branch", "-q", "-f", "main", "origin/main", cwd=plain)
        plain_ok, plain_what = _merge(lab, plain)
        tried = ideas(lab, plain) if not plain_ok else [0] * len(IDEAS)
        brv_ok, brv_what = _merge(lab, lab.root)  # brv vc init configured the drivers here
        rows.append((name, plain_ok, plain_what, brv_ok, brv_what, tried))
    return rows


def table(rows: list[Row]) -> str:
    """The markdown tables of :func:`measure`'s rows, with count lines."""
    lines = ["| branch pair (both made by `brv curate`) | plain `git merge` (a forge) | "
             "brv's merge driver |", "| --- | --- | --- |"]
    for name, plain_ok, plain_what, brv_ok, brv_what, _ in rows:
        lines.append(f"| {name} | {'clean' if plain_ok else 'CONFLICT: ' + plain_what} | "
                     f"{'clean' if brv_ok else 'CONFLICT: ' + brv_what} |")
    clean_plain = sum(row[1] for row in rows)
    clean_brv = sum(row[3] for row in rows)
    lines.append(f"\n{clean_plain} of {len(rows)} pairs merge cleanly with plain git, "
                 f"{clean_brv} of {len(rows)} with brv's driver.\n")
    lines.append("Conflict blocks plain git leaves in the entries both sides modified, "
                 "with the same three versions written another way (`git merge-file`):\n")
    lines.append("| branch pair | " + " | ".join(n for n, _ in IDEAS) + " |")
    lines.append("| --- | " + " | ".join("---:" for _ in IDEAS) + " |")
    for name, plain_ok, plain_what, *_, tried in rows:
        if plain_ok or "modify/modify" not in plain_what:
            continue
        lines.append(f"| {name} | " + " | ".join(str(n) for n in tried) + " |")
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", type=Path, help="build the repositories here and keep them")
    args = parser.parse_args()
    work = args.keep or Path(tempfile.mkdtemp(prefix="brv-forge-"))
    try:
        print(table(measure(args.seed, work)))
    finally:
        if args.keep is None:
            shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
