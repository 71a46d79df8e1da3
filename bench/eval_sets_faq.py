"""Technical Q&A over software documentation: two FAQ sets for ``bench/eval_retrieval.py``.

Each FAQ answer becomes an entry *without* its question (the question would give the answer
away by its own words, as tldr's description would); the entry is titled after the FAQ's
topic and filed under it. The question is the FAQ's own heading, as its users asked it.
Other documentation of the same project is curated beside the answers as distractors.

- **pyfaq**: the Python 3.11 FAQ (general, programming, design, library, extending, windows,
  gui, installed: the headings that end in "?") with every section of the tutorial and the
  HOWTOs as distractors, from Debian's ``python3.11-doc`` package (its Sphinx
  ``_sources/``). Licence: PSF License Version 2 (Python documentation).
- **rustfaq**: the Rust FAQ of the former rust-lang.org site (``en-US/faq.md`` of
  github.com/rust-lang/prev.rust-lang.org, last commit 3c8d24f, 2018), with the sections of
  the site's other English pages as distractors. Licence: MIT or Apache-2.0.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

from bench.eval_sets import DataMissing, Doc, EvalProject, Question

MISSING = {
    "pyfaq": "cd /tmp && apt-get download python3.11-doc && dpkg -x python3.11-doc_*.deb "
             "{data}/pydocs",
    "rustfaq": "git clone https://github.com/rust-lang/prev.rust-lang.org {data}/rust-www",
}

_RST_HEADING = re.compile(r"^(?P<title>[^\n]+)\n(?P<rule>([=\-~^*#\"'`+])\3{2,})[ \t]*$", re.M)
_RST_ROLE = re.compile(r":[\w:.+-]+:`(?:[^`<]*<)?~?([^`>]+)>?`")
_RST_LINK = re.compile(r"`([^`<]+?)\s*<[^>]+>`_+")


def _rst_text(body: str) -> str:
    """Readable text of an rst body: roles and links by their text, directives' lines kept."""
    text = _RST_ROLE.sub(r"\1", body)
    text = _RST_LINK.sub(r"\1", text)
    return re.sub(r"``([^`]+)``", r"\1", text).strip()


def rst_sections(text: str) -> list[tuple[int, str, str]]:
    """(level, heading, body) of each section of an rst document; level by underline order."""
    order: list[str] = []
    marks = list(_RST_HEADING.finditer(text))
    out = []
    for i, mark in enumerate(marks):
        title, rule = mark.group("title").strip(), mark.group("rule")
        if len(rule) < len(title) or title.startswith((" ", "..")):
            continue
        if rule[0] not in order:
            order.append(rule[0])
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        out.append((order.index(rule[0]), title, text[mark.end():end]))
    return out


def _unique(proj: EvalProject) -> EvalProject:
    """Titles made unique within a folder (brv refuses a second entry of the same title)."""
    seen: dict[tuple[str, str], int] = {}
    for i, d in enumerate(proj.docs):
        n = seen[(d.folder, d.title)] = seen.get((d.folder, d.title), 0) + 1
        if n > 1:
            proj.docs[i] = Doc(d.key, d.folder, f"{d.title} ({n})", d.content)
    return proj


def pyfaq(data: Path) -> list[EvalProject]:
    """The Python FAQ's answers plus the tutorial's and HOWTOs' sections (see the module)."""
    root = data / "pydocs" / "usr" / "share" / "doc" / "python3.11" / "html" / "_sources"
    if not (root / "faq").is_dir():
        raise DataMissing("the Python documentation (pyfaq) is missing")
    proj = EvalProject("pyfaq")
    for path in sorted((root / "faq").glob("*.rst.txt")):
        page = path.name.removesuffix(".rst.txt")
        if page == "index":
            continue
        topic = page
        for n, (_level, heading, body) in enumerate(rst_sections(path.read_text("utf-8"))):
            text = _rst_text(body)
            if not heading.endswith("?"):
                topic = heading  # the page's title or a group of questions
                continue
            if len(text) < 40:
                continue
            key = f"faq/{page}#{n}"
            proj.docs.append(Doc(key, f"python/faq/{page}", f"{topic} ({page} FAQ)", text[:20000]))
            proj.questions.append(Question(heading, frozenset({key})))
    for part in ("tutorial", "howto"):
        for path in sorted((root / part).glob("*.rst.txt")):
            page = path.name.removesuffix(".rst.txt")
            for n, (_level, heading, body) in enumerate(rst_sections(path.read_text("utf-8"))):
                text = _rst_text(body)
                if len(text) >= 40:
                    folder = f"python/{part}/{'contents' if page == 'index' else page}"
                    proj.docs.append(Doc(f"{part}/{page}#{n}", folder,
                                         heading, text[:20000]))
    return [_unique(proj)]


_H2 = re.compile(r'^<h2 id="[^"]*">(.+?)</h2>', re.M)
_H3 = re.compile(r"^<h3><a [^>]*>\s*(.+?)\s*</a></h3>|^### ([^\n]+)$", re.M | re.S)
_MD_HEADING = re.compile(r"^#{1,3} (.+)$", re.M)
_TAGS = re.compile(r"<[^>]+>")


def _md_text(body: str) -> str:
    text = re.sub(r"\[([^\]]+)\]\([^)]+\)", r"\1", body)
    return html.unescape(_TAGS.sub(" ", text)).strip()


def rustfaq(data: Path) -> list[EvalProject]:
    """The Rust FAQ's answers plus the other English pages' sections (see the module)."""
    root = data / "rust-www" / "en-US"
    faq = root / "faq.md"
    if not faq.is_file():
        raise DataMissing("the Rust FAQ (rustfaq) is missing")
    proj = EvalProject("rustfaq")
    text = faq.read_text("utf-8")
    topics = [(m.start(), html.unescape(m.group(1))) for m in _H2.finditer(text)]
    marks = list(_H3.finditer(text))
    for i, mark in enumerate(marks):
        question = html.unescape(_TAGS.sub("", mark.group(1) or mark.group(2))).strip()
        end = marks[i + 1].start() if i + 1 < len(marks) else len(text)
        nxt = next((s for s, _ in topics if mark.end() < s < end), end)
        body = _md_text(text[mark.end():nxt])
        topic = next((t for s, t in reversed(topics) if s < mark.start()), "Rust")
        if len(body) < 40:
            continue
        key = f"faq#{i}"
        slug = re.sub(r"[^a-z0-9]+", "-", topic.lower()).strip("-")
        proj.docs.append(Doc(key, f"rust/faq/{slug}", f"{topic} (Rust FAQ)", body[:20000]))
        proj.questions.append(Question(question, frozenset({key})))
    for path in sorted(root.glob("*.md")):
        if path.name == "faq.md":
            continue
        page = _md_text(re.sub(r"^---\n.*?\n---\n", "", path.read_text("utf-8"), flags=re.S))
        heads = list(_MD_HEADING.finditer(page))
        for i, mark in enumerate(heads):
            end = heads[i + 1].start() if i + 1 < len(heads) else len(page)
            body = page[mark.end():end].strip()
            if len(body) >= 40:
                proj.docs.append(Doc(f"{path.stem}#{i}", f"rust/site/{path.stem}",
                                     mark.group(1).strip(), body[:20000]))
    return [_unique(proj)]
