"""Benchmark (issue 37): a dream's consolidate decisions on real templated text, labelled.

Four corpora read from this machine at run time (bench/dream_corpora.py): man pages, Debian
package docs (copyright, license, changelog, README: Debian's templates), the READMEs of the
installed Python packages and brv's own docs. Each subject's sections go in as a team's
import would (``brv import`` of ``<corpus>/<subject>/<section>.md``: domain, topic, entry),
then a day later a second agent curates some sections again in other words (true
duplicates: sentences reordered, one dropped, words of one changed, another heading; seeded,
the rewriting rules in bench/data/dream_pairs.json). One ``brv dream --force`` runs with the
old code (``git archive`` of a ref, default main's 7cc6393) and with this one, each on its
own copy, and its decisions are scored against the labels:

- MERGE and TEMPORAL_UPDATE are right when the pair is a true duplicate;
- CROSS_REFERENCE is right when a reader of one entry should know about the other, read
  from the tree before the dream (never from the dream's own evidence); any one of:
  - one subject family: the same subject folder (two sections of one package, page or
    man page);
  - an explicit mention: the text of one names the other's subject, its subject folder's
    name (``libxmlsec1``, ``grep``; ``_`` read as ``-``, ``_`` or a space) when at most 3 subjects
    of the corpus say that name (the page names ``cli`` or ``review`` are common words),
    or a whole backtick span of it is that name (httpx's "builds on `requests`": the
    package named as code, though many READMEs say "requests" in prose), or the command
    its title names (``brv review`` in the dreaming page's "Review");
  - a family name: one subject's folder name is the first words of the other's
    (``pydantic`` of ``pydantic_core``, ``pytest`` of ``pytest_xdist``: a part of it or a
    plug-in for it, by its very name);
  - a shared identifier: a word of both entries' code (backtick spans, fenced blocks) of 4
    characters or more that at most 2 subjects of the corpus use (an option, a function,
    a file name), not a template's boilerplate (``npm install``, ``--help``);
  a link between two subjects that only share a template, a licence or common words is
  wrong (issue 37: "one topic folder" alone counted ``cli/brv_review`` and
  ``dreaming/review`` as wrong);
- recall: the share of the true duplicates that got a MERGE or a TEMPORAL_UPDATE.

``--keep DIR`` builds in DIR and keeps it (the labels in ``DIR/pairs.json``, each dream's
answer in ``DIR/answer-old.json`` and ``answer-new.json``); ``--reuse DIR`` dreams again on
copies of that project, without building it again.

Usage: python bench/dream_pairs.py [--old REF|--no-old] [--keep DIR | --reuse DIR] [--only man,docs]
"""

from __future__ import annotations

import argparse
import json
import random
import re
import shutil
import sys
import tempfile
from collections import Counter
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench import dream_corpora
from bench.dream_compare import measured, old_source
from brv_vc.format.entry import parse_entry
from brv_vc.services import curate
from brv_vc.services.importers import import_notes
from brv_vc.services.init import init_project
from brv_vc.tree.layout import snake
from brv_vc.tree.project import Project
from brv_vc.tree.store import entry_paths

REPO = Path(__file__).resolve().parent.parent
DATA = json.loads((REPO / "bench" / "data" / "dream_pairs.json").read_text())
IMPORTED = datetime(2026, 9, 1, 9, tzinfo=UTC)
SHOW = False  # --show: print each wrong decision
_SENTENCE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(`\"'])")


def corpora(only: set[str]) -> dict[str, list[tuple[str, dream_corpora.Sections]]]:
    """Each corpus's subjects and sections, as configured in the data file."""
    conf = DATA["corpora"]
    made = {
        "man": lambda c: dream_corpora.man(c["subjects"], c["sections"], c["skip"]),
        "debian": lambda c: dream_corpora.debian(c["subjects"], c["sections"]),
        "pypi": lambda c: dream_corpora.pypi(c["subjects"], c["sections"]),
        "docs": lambda c: dream_corpora.docs(c["subjects"], c["sections"]),
    }
    return {name: list(read(conf[name])) for name, read in made.items()
            if not only or name in only}


def write_notes(folder: Path, found: dict[str, list[tuple[str, dream_corpora.Sections]]],
                ) -> None:
    """``<corpus>/<subject>/<section>.md`` notes, each ``# heading`` then its text."""
    for corpus, subjects in found.items():
        for subject, sections in subjects:
            where = folder / corpus / snake(subject)
            where.mkdir(parents=True, exist_ok=True)
            used: Counter[str] = Counter()
            for heading, text in sections:
                name = snake(heading) or "section"
                used[name] += 1
                name += f"_{used[name]}" if used[name] > 1 else ""
                (where / f"{name}.md").write_text(f"# {heading}\n\n{text}\n")


def _units(text: str) -> list[str]:
    """Sentences of prose, code blocks whole (a rewrite keeps code as it is)."""
    out: list[str] = []
    for block in re.split(r"\n\s*\n", text.strip()):
        if block.lstrip().startswith(("```", "~~~", "    ", "$ ")):
            out.append(block)
        else:
            out.extend(s for s in _SENTENCE.split(" ".join(block.split())) if s)
    return out


def rewrite(text: str, heading: str, subject: str, rng: random.Random) -> tuple[str, str]:
    """The section said again by another agent: (new heading, new text)."""
    units = _units(text)
    prose = [i for i, u in enumerate(units) if not u.lstrip().startswith(("```", "~~~"))]
    if len(prose) >= 2:  # two sentences change places
        i = rng.randrange(len(prose) - 1)
        a, b = prose[i], prose[i + 1]
        units[a], units[b] = units[b], units[a]
    if len(prose) >= 4:  # one is left out
        del units[rng.choice(prose[1:])]
    synonyms: dict[str, str] = DATA["synonyms"]
    for i, unit in enumerate(units):  # words changed in every other sentence
        if i % 2 == 0 and not unit.lstrip().startswith(("```", "~~~", "    ")):
            units[i] = re.sub(r"\b[a-z]+\b", lambda m: synonyms.get(m.group(), m.group()), unit)
    pattern = rng.choice(DATA["headings"])
    title = pattern.format(heading=heading, lower=heading.lower(), subject=subject)
    paragraphs: list[str] = []
    for unit in units:
        code = unit.lstrip().startswith(("```", "~~~", "    ", "$ "))
        if code or not paragraphs or rng.random() < 0.3:  # a new paragraph now and then
            paragraphs.append(unit)
        else:
            paragraphs[-1] += " " + unit
    return title, "\n\n".join(paragraphs)


def build(root: Path, only: set[str]) -> tuple[list[tuple[str, str]], dict[str, int]]:
    """The project: imported sections, then the true duplicates a day later.

    Returns the duplicate pairs (original, copy) and the entries of each corpus.
    """
    init_project(root)
    project = Project(root)
    found = corpora(only)
    notes = root.parent / "notes"
    shutil.rmtree(notes, ignore_errors=True)
    write_notes(notes, found)
    result = import_notes(project, notes, IMPORTED)
    if not result.ok:
        failed = [r for r in (result.curate.applied if result.curate else ())
                  if r.status == "failed"]
        raise SystemExit(f"import failed: {result.skipped[:3]} {failed}")
    conf = DATA["duplicates"]
    rng = random.Random(conf["seed"])
    by_topic: dict[str, list[str]] = {}
    for rel in entry_paths(project):
        by_topic.setdefault(rel.rsplit("/", 1)[0], []).append(rel)
    ops, originals = [], []
    for topic in sorted(by_topic):
        if rng.random() >= conf["share"]:
            continue
        choices = [p for p in by_topic[topic]
                   if len(parse_entry((project.tree / p).read_bytes()).body) >= conf["min_chars"]]
        if not choices:
            continue
        original = rng.choice(choices)
        entry = parse_entry((project.tree / original).read_bytes(), file=original)
        body = re.sub(r"^## Narrative\n", "", entry.body.strip())  # the import's wrapping
        title, text = rewrite(body, entry.title, topic.split("/")[1].replace("_", " "),
                              rng)
        ops.append({"type": "ADD", "path": topic, "title": title, "content": text,
                    "reason": "a second agent curates this again"})
        originals.append(original)
    applied = curate.run_batch(project, ops, IMPORTED + timedelta(days=1))
    if not applied.ok:
        raise SystemExit(f"duplicates failed: {[r for r in applied.applied if r.status == 'failed']}")
    pairs = [(o, r.file) for o, r in zip(originals, applied.applied, strict=True) if r.file]
    sizes = Counter(p.split("/", 1)[0] for p in entry_paths(project))
    return pairs, dict(sizes)


_CODE = re.compile(r"^(```|~~~)[^\n]*\n(.*?)^\1|`([^`\n]+)`", re.MULTILINE | re.DOTALL)
_WORD = re.compile(r"[a-z0-9][a-z0-9_.-]*[a-z0-9]|[a-z0-9]")


class Related:
    """The CROSS_REFERENCE label: should a reader of one entry know about the other?

    Read once from the tree before any dream (see the module's docstring).
    """

    def __init__(self, root: Path) -> None:
        project = Project(root)
        self.text: dict[str, str] = {}
        self.code: dict[str, set[str]] = {}
        self.command: dict[str, str] = {}
        self.spans: dict[str, set[str]] = {}  # an entry's whole backtick spans
        users: dict[tuple[str, str], set[str]] = {}  # (corpus, word) -> subjects using it
        for rel in entry_paths(project):
            entry = parse_entry((project.tree / rel).read_bytes(), file=rel)
            text = f"{entry.title}\n{entry.body}".lower()
            self.text[rel] = f" {' '.join(_WORD.findall(text))} "
            said = [w for m in _CODE.finditer(text)
                    for w in _WORD.findall(m.group(2) or m.group(3) or "")]
            self.spans[rel] = {m.group(3).strip() for m in _CODE.finditer(text) if m.group(3)}
            self.code[rel] = {w for w in said
                              if len(w) >= 4 and not w.isdigit() and not w.startswith("-")}
            for word in self.code[rel]:
                users.setdefault((self._corpus(rel), word), set()).add(self._subject(rel))
            title = " ".join(_WORD.findall(entry.title.lower()))  # a title naming a command
            named = len(title.split()) >= 2 and f" {title} " in f" {' '.join(said)} "
            self.command[rel] = title if named else ""
        self.rare = {key for key, who in users.items() if len(who) <= 2}
        # a subject's name names it when few subjects say it ("cli", "review" are words)
        texts: dict[str, list[tuple[str, str]]] = {}
        for rel, text in self.text.items():
            texts.setdefault(self._corpus(rel), []).append((self._subject(rel), text))
        self.named: dict[str, list[str]] = {}
        for rel in self.text:
            subject = self._subject(rel)
            if subject not in self.named:
                folder = subject.split("/", 1)[1]
                names = {f" {folder.replace('_', sep)} " for sep in (" ", "-", "_")}
                self.named[subject] = [n for n in names if len(
                    {who for who, t in texts[self._corpus(rel)] if n in t}) <= 3]

    @staticmethod
    def _corpus(rel: str) -> str:
        return rel.split("/", 1)[0]

    @staticmethod
    def _subject(rel: str) -> str:
        return rel.rsplit("/", 1)[0]

    def _names(self, rel: str) -> list[str]:
        command = self.command.get(rel, "")
        return [*self.named[self._subject(rel)], *([f" {command} "] if command else [])]

    def __call__(self, files: list[str]) -> bool:
        if len({self._subject(f) for f in files}) == 1:
            return True
        a, b = files[0], files[1]
        for one, two in ((a, b), (b, a)):
            folder = self._subject(one).split("/", 1)[1]
            if any(n in self.text.get(two, "") for n in self._names(one)) or {
                    folder.replace("_", sep) for sep in (" ", "-", "_")} & self.spans[two]:
                return True
        x, y = (self._subject(f).split("/", 1)[1].split("_") for f in files)
        if x == y[:len(x)] or y == x[:len(y)]:  # a family name (pydantic, pydantic_core)
            return True
        corpus = self._corpus(a)
        return any((corpus, w) in self.rare for w in self.code.get(a, set()) & self.code.get(b, set()))


def _score(answer: dict[str, Any], pairs: list[tuple[str, str]],
           sizes: dict[str, int], related: Related) -> dict[str, dict[str, Any]]:
    dupes = {frozenset(p) for p in pairs}
    out: dict[str, dict[str, Any]] = {c: {"entries": n, "duplicates": 0, "found": 0}
                                      for c, n in sizes.items()}
    for a, _ in pairs:
        out[a.split("/", 1)[0]]["duplicates"] += 1
    found: set[frozenset[str]] = set()
    for op in answer.get("operations", []):
        if op.get("operation") != "consolidate" or op["action"] == "SKIP":
            continue
        action = op["action"]
        if action == "MERGE":
            named = [op["target"], *op["sources"]]
            right = frozenset(named) in dupes
        elif action == "TEMPORAL_UPDATE":
            named = [op["file"], op["newer"]]
            right = frozenset(named) in dupes
        else:
            named = list(op["files"])
            right = related(named)
        if action != "CROSS_REFERENCE" and right:
            found.add(frozenset(named))
        if not right and SHOW:
            print(f"  wrong {action}: {' '.join(named)} ({op.get('confidence')})")
        row = out[named[0].split("/", 1)[0]]
        row[action] = row.get(action, 0) + 1
        row[action + "_right"] = row.get(action + "_right", 0) + int(right)
    for a, b in pairs:
        if frozenset((a, b)) in found:
            out[a.split("/", 1)[0]]["found"] += 1
    return out


def _cell(row: dict[str, Any], action: str) -> str:
    made = row.get(action, 0)
    if not made:
        return "-"
    return f"{row[action + '_right'] / made:.2f} ({row[action + '_right']}/{made})"


def report(label: str, scored: dict[str, dict[str, Any]]) -> None:
    """One table row per corpus: precision of each action, recall of the duplicates."""
    print(f"\n{label}")
    print(f"{'corpus':8} {'entries':>7} {'MERGE':>14} {'TEMPORAL_UPDATE':>16} "
          f"{'CROSS_REFERENCE':>16} {'dup recall':>12}")
    for corpus, row in sorted(scored.items()):
        recall = row["found"] / row["duplicates"] if row["duplicates"] else 0.0
        print(f"{corpus:8} {row['entries']:>7} {_cell(row, 'MERGE'):>14} "
              f"{_cell(row, 'TEMPORAL_UPDATE'):>16} {_cell(row, 'CROSS_REFERENCE'):>16} "
              f"{recall:.2f} ({row['found']}/{row['duplicates']})".rjust(12))


def main() -> None:
    """Builds the corpora, dreams with each version, prints the scores."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--old", default="7cc6393", help="the code to compare with")
    parser.add_argument("--no-old", action="store_true", help="score this code only")
    parser.add_argument("--keep", help="build in this folder and keep it")
    parser.add_argument("--reuse", help="a folder --keep left: dream on it again")
    parser.add_argument("--only", default="", help="corpora, comma-separated")
    parser.add_argument("--show", action="store_true", help="print the wrong decisions")
    args = parser.parse_args()
    global SHOW
    SHOW = args.show
    kept = args.reuse or args.keep
    base = Path(kept) if kept else Path(tempfile.mkdtemp(prefix="brv-dream-pairs-"))
    root = base / "proj"
    if args.reuse:
        labels = json.loads((base / "pairs.json").read_text())
        pairs, sizes = [(a, b) for a, b in labels["pairs"]], labels["sizes"]
    else:
        if root.exists():
            shutil.rmtree(root)
        root.mkdir(parents=True)
        pairs, sizes = build(root, {c for c in args.only.split(",") if c})
        (base / "pairs.json").write_text(json.dumps({"pairs": pairs, "sizes": sizes}))
    print(f"tree: {root} ({sum(sizes.values())} entries: {sizes}; "
          f"{len(pairs)} true duplicates)")
    related = Related(root)
    versions = [] if args.no_old else [(f"old ({args.old})", old_source(args.old))]
    for label, code in [*versions, ("new (this tree)", REPO)]:
        copy = base / f"proj-{label.split()[0]}"
        shutil.rmtree(copy, ignore_errors=True)
        shutil.copytree(root, copy, symlinks=True)
        measured(code, copy, "index", "--json")
        seconds, peak, answer = measured(code, copy, "dream", "--force", "--json",
                                        "--budget", "7200")  # whole dreams, never cut
        if kept:  # to score again (another label) without dreaming again
            (base / f"answer-{label.split()[0]}.json").write_text(json.dumps(answer))
        kinds = Counter(op["action"] for op in answer.get("operations", []))
        report(f"{label}: {seconds:.1f} s, peak {peak:.0f} MB, operations {dict(kinds)}",
               _score(answer, pairs, sizes, related))
    if not kept:
        shutil.rmtree(base, ignore_errors=True)


if __name__ == "__main__":
    main()
