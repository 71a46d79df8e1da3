"""What entries of different domains really share: the evidence of an offline synthesis.

Only entries count: their tags and keywords, the two-word terms of their title and summary
(what they are about), and (in a small tree) single words of those. ``_index.md`` summaries,
``context.md`` files (generated or not) and the synthesis domain are never read, so
boilerplate such as "Key terms:" or "Covers the project's knowledge" cannot become a
pattern. Everything comes from the index (one query, no file read): a dream at 100,000
entries pays for one pass over their first lines, never for parsing them.
"""

from __future__ import annotations

import itertools
import re
import sqlite3
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

import numpy as np

from brv_vc.index import listings, texts
from brv_vc.index.terms import STOPWORDS, stem, tokens
from brv_vc.tree.layout import ARCHIVE_DIR

SMALL_TREE = 20  # entries: under this, single words count and the "tells something" rules wait
HEAD_CHARS = 600  # of each entry's searchable text: its summary, tags and first lines
TEXT_BATCH = 2000
# words too common in technical writing to name a pattern on their own or in a pair
GENERIC = frozenset("""
    use used uses using see also one two three new way ways get gets set sets make makes run
    runs show shows list lists specific given default current example examples information
    file files directory directories path paths name names value values option options command
    commands thing things time times work works working note notes entry entries topic topics
    domain domains context summary key keys term terms project projects data text line lines
    first last every never always once each like need needs want well good better best via
    type types part parts case cases number numbers level levels item items kind kinds
    covers within knowledge folder folders subtopic md http https www com org
    narrative facts concept structure rules highlights dependencies examples raw task flow
    per non etc versus vs able without display print version help info
""".split())
_WORD = re.compile(r"[^\W_]+")
_SPACED = re.compile(r" +| ?- ?")
_CODE = re.compile(r"`[^`]*`")
KIND_WEIGHT = {"tag": 3.0, "phrase": 2.0, "word": 1.0}


@dataclass
class Term:
    """One candidate pattern: its kind, how it is written, and the entries that hold it."""

    kind: str  # tag | phrase | word
    key: str = ""  # stemmed words
    shown: dict[str, int] = field(default_factory=dict)  # surface forms and their counts
    entries: dict[str, dict[str, None]] = field(default_factory=dict)  # domain -> paths
    titles: set[str] = field(default_factory=set)  # of those entries, lowercased

    @property
    def label(self) -> str:
        """The most used surface form."""
        return max(sorted(self.shown), key=lambda s: self.shown[s])

    @property
    def paths(self) -> list[str]:
        """Every entry holding the term, domain by domain."""
        return [p for d in sorted(self.entries) for p in self.entries[d]]


@dataclass(frozen=True)
class EntryText:
    """What the detector reads of one entry."""

    path: str
    title: str
    keys: str
    head: str  # the opening line of its searchable text (see :func:`opening`)


def entry_texts(conn: sqlite3.Connection, skip_domain: str) -> list[EntryText]:
    """Every parsed entry outside ``skip_domain`` and the archive, from the index."""
    rows = [(i, p, t) for i, p, t in listings.parsed_entries(conn)
            if p.split("/", 1)[0] not in (skip_domain, ARCHIVE_DIR)]
    # the FTS5 table is contentless: the indexed text is kept (compressed) in ``texts``;
    # read a batch at a time and cut at once (every whole text of 100,000 entries: ~200 MB)
    out = []
    for first in range(0, len(rows), TEXT_BATCH):
        batch = rows[first:first + TEXT_BATCH]
        stored = texts.load(conn, [i for i, _, _ in batch])
        # only its opening line is read of the head (a line is its own opening): keep that
        out += [EntryText(p, t or "", stored[i][1], opening(stored[i][0][:HEAD_CHARS]))
                for i, p, t in batch if i in stored]
    return out


def _plain(word: str) -> bool:
    return (len(word) >= 3 and not word.isdigit() and word not in STOPWORDS
            and word not in GENERIC)


def _words(text: str) -> list[tuple[str, str]]:
    """(lowercase, as written) of each word of ``text`` (``terms.tokens`` keeping the case)."""
    return [(w.lower(), w) for w in _WORD.findall(text) if len(w) >= 2]


def _phrases(text: str) -> Iterable[tuple[str, str]]:
    """(stemmed key, surface form) of each two-word run of plain words.

    A run never crosses a line (a heading and the line under it are no term), a heading
    line and code (fenced or in backticks) have none (``## Narrative`` is structure,
    ```tldr chpass``` a command), and the two words are written apart by
    spaces or a hyphen only: ``services/derived`` or ``config.yaml`` is a path, not a term.
    """
    fenced = False
    for line in text.splitlines():
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        if fenced or line.lstrip().startswith(("#", "```", "~~~")):
            continue
        line = _CODE.sub(" | ", line)  # code is commands and names, not the prose of a term
        found = list(_WORD.finditer(line))
        for m, n in itertools.pairwise(found):
            a, b = m.group().lower(), n.group().lower()
            gap = line[m.end():n.start()]
            if (_plain(a) and _plain(b) and a != b and _SPACED.fullmatch(gap)
                    and not _in_path(line, m.start(), n.end())):
                yield f"{stem(a)} {stem(b)}", f"{m.group()} {n.group()}"


def _in_path(line: str, start: int, end: int) -> bool:
    """True when the words at ``line[start:end]`` touch a path ("python bench/x.py")."""
    before = line[start - 1] if start > 0 else ""
    after = line[end:end + 2]
    return before in ("/", ".") or (len(after) == 2 and after[0] in "/." and after[1].isalnum())


def opening(head: str) -> str:
    """The summary, else the body's first line of prose.

    The head is ``Entry.text_for_search``: summary, tags, keywords, body, one a line.
    """
    parts = head.split("\n", 3)
    if parts[0].strip():
        return parts[0]
    body = parts[3] if len(parts) == 4 else ""
    return next((ln for ln in body.splitlines() if ln.strip() and not ln.startswith("#")), "")


def gather(entries: list[EntryText]) -> tuple[dict[str, Term], dict[str, int]]:
    """Every term of the entries, with the domains and entries that hold it.

    Also returns in how many entries each (stemmed) word occurs: a term made of a word
    that is everywhere (a product's own name) tells nothing.
    """
    found: dict[str, Term] = {}
    spread: dict[str, int] = {}
    small = len(entries) < SMALL_TREE
    # Why two passes: most terms of a large tree are held by one or two entries, and a Term
    # each took ~1 GB at 100,000 entries (issue 24: a dream's peak <= 300 MB). The first pass
    # counts each term's entries by hash in an array; only a term held by as many entries
    # as :func:`shared` needs (3, or 2 in a small tree; a hash collision only lets more
    # through) is gathered.
    held = _held(entries, 2 if small else 3)
    for entry in entries:
        for word in {stem(w) for w, _ in _words(_lead(entry))}:
            spread[word] = spread.get(word, 0) + 1
    # a term made of a word in over a quarter of the entries is dropped by shared(): such
    # terms hold the most entries, so they are not gathered at all
    common = set() if small else {w for w, n in spread.items() if n > len(entries) / 4}

    def add(key: str, kind: str, surface: str, domain: str, path: str) -> None:
        if hash(f"{kind}:{key}") not in held or (common and not common.isdisjoint(
                key.split())):
            return
        term = found.setdefault(f"{kind}:{key}", Term(kind, key))
        if len(term.titles) < 3:  # shared() asks for three titles, never more
            term.titles.add(title)
        term.shown[surface] = term.shown.get(surface, 0) + 1
        # an ordered set: a term of thousands of entries must not cost a list scan each
        term.entries.setdefault(domain, {})[path] = None

    for entry in entries:
        domain = entry.path.split("/", 1)[0]
        title = entry.title.lower()
        words = _words(_lead(entry))
        for kind, key, surface in _terms(entry, words, small):
            add(key, kind, surface, domain, entry.path)
    return found, spread


def _lead(entry: EntryText) -> str:
    """What the entry is about: its title and its summary (else its first line of prose).

    The rest of its text mentions things in passing (and costs a dream at 100,000).
    """
    return f"{entry.title}\n{opening(entry.head)}"


def _terms(entry: EntryText, words: list[tuple[str, str]], small: bool,
           ) -> Iterator[tuple[str, str, str]]:
    """(kind, stemmed key, surface form) of each term of one entry, each key once."""
    for raw in dict.fromkeys(entry.keys.lower().split()):
        parts = [w for w in tokens(raw.replace("-", " ").replace("_", " ")) if _plain(w)]
        if parts:
            yield "tag", " ".join(map(stem, parts)), " ".join(parts)
    for key, surface in dict.fromkeys(_phrases(_lead(entry))):
        yield "phrase", key, surface
    for word, shown in dict.fromkeys(words if small else ()):  # see shared()
        if len(word) >= 4 and _plain(word):
            yield "word", stem(word), shown


def _held(entries: list[EntryText], least: int) -> set[int]:
    """The hashes of ``kind:key`` of the terms held by ``least`` entries or more."""
    small = least < 3
    hashes = []
    for entry in entries:
        mine = {hash(f"{kind}:{key}") for kind, key, _ in _terms(entry, _words(_lead(entry)),
                                                                 small)}
        hashes.append(np.fromiter(mine, np.int64, len(mine)))
    if not hashes:
        return set()
    values, counts = np.unique(np.concatenate(hashes), return_counts=True)
    return set(values[counts >= least].tolist())


def shared(found: dict[str, Term], spread: dict[str, int], entries: int,
           domains: list[str]) -> list[Term]:
    """The terms that several domains share and that still tell something, best first.

    A term must be held by entries of at least two domains and must not be a domain's own
    name. In a tree big enough to tell (20 entries or more) it must not be everywhere: held
    by more than a quarter of the entries, or made of a word that more than a quarter of
    them use, and it must rest on three entries or more, of three titles or more (the same
    command page on four platforms is one thing), in three domains or two entries in each
    of two. Among six or more domains, it must not be in more than half of them. A single
    word (of a title or summary) counts only in a tree of fewer than 20 entries, where tags
    and terms are too few to show a pattern.
    Terms are ranked by kind (tag, phrase, word) times domains, then by entries.
    """
    names = {stem(d.lower()) for d in domains}
    out = []
    for term in found.values():
        reach = len(term.entries)
        count = sum(len(p) for p in term.entries.values())
        if reach < 2 or term.label.lower() in names or stem(term.label.lower()) in names:
            continue
        if entries >= SMALL_TREE and (count > entries / 4 or any(
                spread.get(w, 0) > entries / 4 for w in term.key.split())):
            continue
        if len(domains) >= 6 and reach > len(domains) / 2:
            continue
        if entries >= SMALL_TREE and (len(term.titles) < 3 or (reach == 2 and min(
                len(p) for p in term.entries.values()) < 2)):
            continue  # two entries (or one page per platform), or one stray: a coincidence
        if term.kind == "word" and entries >= SMALL_TREE:
            continue  # a big tree has tags and terms to show; one shared word is noise there
        out.append(term)
    return sorted(out, key=lambda t: (-KIND_WEIGHT[t.kind] * len(t.entries),
                                      -min(sum(len(p) for p in t.entries.values()), 12),
                                      t.label))
