"""Labelled question sets for ``bench/eval_retrieval.py`` (loaders only; no brv code).

A set is a list of projects; each project holds documents (one brv entry each) and questions
whose ``relevant`` names the keys of the documents that answer them. Public data is read from
``--data DIR`` and never committed; ``MISSING`` says how to obtain each source.
"""

from __future__ import annotations

import json
import re
import sys
import zipfile
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent

MISSING = {
    "locomo": "git clone https://github.com/snap-research/locomo {data}/locomo",
    "tldr": "git clone --depth 1 https://github.com/tldr-pages/tldr {data}/tldr",
}


@dataclass(frozen=True)
class Doc:
    """One entry to curate."""

    key: str
    folder: str
    title: str
    content: str
    tags: tuple[str, ...] = ()
    keywords: tuple[str, ...] = ()


@dataclass(frozen=True)
class Question:
    """A question and the keys of the documents that answer it (empty: unanswerable)."""

    text: str
    relevant: frozenset[str]


@dataclass
class EvalProject:
    """Documents curated into one brv project and the questions asked of it."""

    name: str
    docs: list[Doc] = field(default_factory=list)
    questions: list[Question] = field(default_factory=list)


class DataMissing(Exception):
    """A public source is not under --data; the message says how to fetch it."""


# ------------------------------------------------------------------------------ LoCoMo
def _locomo_samples(root: Path) -> list[dict[str, object]]:
    """Conversations of LoCoMo: data/locomo10.json (current repo) or data/locomo10.zip."""
    plain = root / "data" / "locomo10.json"
    if plain.is_file():
        return [
            {**s["conversation"], "qa": s["qa"], "id": s["sample_id"]}
            for s in json.loads(plain.read_text())
        ]
    packed = root / "data" / "locomo10.zip"
    if packed.is_file():
        with zipfile.ZipFile(packed) as zf:
            names = sorted(n for n in zf.namelist() if n.endswith(".json"))
            return [{**json.loads(zf.read(n)), "id": Path(n).stem} for n in names]
    raise DataMissing("LoCoMo is missing")


def locomo(data: Path, conversations: int) -> list[EvalProject]:
    """One project per conversation, one entry per dialogue turn (the issue's setting).

    Title: ``<speaker>, <session date>`` (what a note-taker would write); content: the turn,
    with the shared image's caption. Questions: every QA item whose evidence names turns.
    """
    projects = []
    for sample in _locomo_samples(data / "locomo")[:conversations]:
        proj = EvalProject(f"locomo-{sample['id']}")
        n = 1
        while f"session_{n}" in sample:
            date = str(sample.get(f"session_{n}_date_time", ""))
            for turn in sample[f"session_{n}"]:  # type: ignore[attr-defined]
                text = turn["text"]
                if turn.get("blip_caption"):
                    text += f" [shares {turn['blip_caption']}]"
                proj.docs.append(
                    Doc(turn["dia_id"], f"conversation/session_{n}",
                        f"{turn['speaker']}, {date} ({turn['dia_id']})", text)
                )
            n += 1
        keys = {d.key for d in proj.docs}
        for qa in sample["qa"]:  # type: ignore[attr-defined]
            ids = {e.strip() for ev in qa.get("evidence", []) for e in re.split(r"[;,]", ev)}
            ids &= keys
            if ids:
                proj.questions.append(Question(qa["question"], frozenset(ids)))
        projects.append(proj)
    return projects


# ------------------------------------------------------------------------------ tldr
_MNEMONIC = re.compile(r"\[(\w{1,3})\]")


def _page(text: str) -> tuple[str, str, str]:
    """(command, one-line description, examples) of a tldr page.

    The entry holds the command's name and its examples, not the description the question
    is made from (else every system finds the page by the question's own words).
    """
    lines = text.splitlines()
    name = lines[0].lstrip("# ").strip()
    desc = [ln[1:].strip() for ln in lines if ln.startswith(">")]
    first = next((d for d in desc if not d.startswith(("More information", "See also"))), "")
    examples = [ln for ln in lines[1:] if not ln.startswith(">")]
    body = _MNEMONIC.sub(r"\1", "\n".join(examples)).strip()
    return name, first, body


def question_of(name: str, description: str) -> str:
    """The deterministic rewording: the command's own name removed, asked as a question."""
    own = set(re.findall(r"\w+", name.lower()))
    words = [w for w in re.findall(r"[\w'+.-]+", description.rstrip(".")) if w.lower() not in own]
    return "What command do I use to " + " ".join(words).lower() + "?"


def tldr(data: Path, pages: int, every: int) -> list[EvalProject]:
    """One project of ``pages`` command pages (pages/common, every n-th by name).

    Each page is an entry titled with its command holding its examples; every ``every``-th
    page's one-line description, reworded by ``question_of``, is a question whose answer is
    that page.
    """
    folder = data / "tldr" / "pages" / "common"
    if not folder.is_dir():
        raise DataMissing("tldr is missing")
    files = sorted(folder.glob("*.md"))
    step = max(1, len(files) // pages)
    proj = EvalProject("tldr")
    for i, path in enumerate(files[::step][:pages]):
        name, desc, body = _page(path.read_text(encoding="utf-8"))
        if not re.search(r"[^\W_]", name):
            continue  # "!", "[": no word to name an entry after
        first = re.sub(r"[^a-z0-9]", "", name.lower()[:1]) or "other"
        proj.docs.append(Doc(path.stem, f"commands/{first}", name, body))
        if desc and i % every == 0:
            proj.questions.append(Question(question_of(name, desc), frozenset({path.stem})))
    return [proj]


# ------------------------------------------------------------------------------ ours
_HEADING = re.compile(r"^(#{2,3}) (.+)$", re.M)


# The docs the project set's labels were written against. Every edit to README.md or docs/
# changed the set's corpus (and moved its recall by a question or two: the figures the docs
# quote are part of it), so the set reads them as they were at this commit.
DOCS_AT = "e8b70df"


def _doc_texts(repo: Path) -> list[tuple[str, str]]:
    """(path, text) of README.md and docs/*.md at DOCS_AT; the working tree without git."""
    import subprocess

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True,
                              check=True).stdout
    try:
        names = ["README.md", *sorted(n for n in git("ls-tree", "--name-only", DOCS_AT,
                                                     "docs/").split() if n.endswith(".md"))]
        return [(name, git("show", f"{DOCS_AT}:{name}")) for name in names]
    except (OSError, subprocess.CalledProcessError):
        print(f"project set: no git history at {DOCS_AT}; reading the docs as they are now",
              file=sys.stderr)
        paths = [repo / "README.md", *sorted((repo / "docs").glob("*.md"))]
        return [(p.relative_to(repo).as_posix(), p.read_text(encoding="utf-8")) for p in paths]


def doc_sections(repo: Path) -> list[Doc]:
    """Every ## / ### section of README.md and docs/*.md, one entry each (key ``file#heading``)."""
    docs = []
    for rel, text in _doc_texts(repo):
        marks = list(_HEADING.finditer(text))
        for i, mark in enumerate(marks):
            end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
            # conflict-marker lines in examples would be refused as an unresolved conflict
            body = re.sub(r"^(<{7}|={7}|>{7})", r" \1", text[mark.end():end].strip(), flags=re.M)
            title = mark.group(2).replace("`", "").strip()
            if body:
                stem = rel.rsplit("/", 1)[-1].removesuffix(".md")
                folder = "docs/" + (stem.lower() if rel.startswith("docs/") else "overview")
                docs.append(Doc(f"{rel}#{title}", folder, title, body[:20000]))
    return docs


def _resolve(label: str, keys: list[str]) -> set[str]:
    """A label names a document key, or a section by the start of its heading."""
    if label in keys:
        return {label}
    return {k for k in keys if "#" in label and k.lower().startswith(label.lower())}


def project_knowledge() -> tuple[list[EvalProject], list[str]]:
    """Our own set: bench/data/project_knowledge.json plus this repository's doc sections.

    Returns the project and the set's unanswerable questions. A question whose label no longer
    names a section (the docs moved on) is left out with a warning on stderr.
    """
    raw = json.loads((HERE / "data" / "project_knowledge.json").read_text())
    proj = EvalProject("project")
    for e in raw["entries"]:
        proj.docs.append(
            Doc(e["key"], e["folder"], e["title"], e["content"],
                tuple(e.get("tags", ())), tuple(e.get("keywords", ())))
        )
    proj.docs += doc_sections(HERE.parent)
    keys = [d.key for d in proj.docs]
    for q in raw["questions"]:
        found = [_resolve(label, keys) for label in q["relevant"]]
        if all(found):
            proj.questions.append(Question(q["q"], frozenset(set().union(*found))))
        else:
            print(f"project set: skipped {q['q']!r} (no section for {q['relevant']})",
                  file=sys.stderr)
    return [proj], list(raw["unanswerable"])
