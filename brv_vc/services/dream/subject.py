"""Whether two alike entries are about the same subject: the evidence of a MERGE or a link.

Word overlap cannot tell "the same subject said twice" from "the same template filled for
two subjects": the Installation sections of two npm packages, the COPYRIGHT sections of two
man pages or the help of two commands share nearly every word and differ exactly in the
words that name their subject (issue 37). So an entry's **names** are the words that say
what it is about: its path below the domain (topic, subtopic, file name), its title, and
its code (backtick spans and fenced blocks: commands, packages, identifiers). A name is
**specific** unless entries of many folders of the domain use the word (a template heading
such as "Installation", boilerplate code such as ``npm install``): those say what kind of
section an entry is, not whose. Folders, not entries: a package's name is in every one of
its own sections (one folder), a template word in every package's.

For a pair, each side's own names are its folder words and specific label words that the
other's names lack, and its specific code words that the other's text never uses (stemmed;
see :meth:`Subjects.evidence`). Then:

- both sides have own names: two subjects (a template filled twice), however alike the
  rest is: no MERGE, no TEMPORAL_UPDATE;
- two sibling folders of a domain (neither holds the other) and one of them named by a
  word the other's names lack: two subjects too. A folder names its subject, and
  ``libxmlsec1-openssl`` is another package than ``libxmlsec1`` although every word of
  the one is in the other (a subfolder is a part of its parent: ``auth`` and
  ``auth/tokens`` still need own names on both sides);
- a command's section, the title naming the command its code runs (``brv curate update``:
  the longest run of two or more of the title's words that its code says in that order):
  two titles naming two commands are two subjects, however few words differ. ``curate
  update`` and ``curate upsert`` are two commands; ``brv hooks status`` is a subcommand,
  its own subject, not ``brv hooks`` revisited; "Notes on brv hooks status" still names
  ``brv hooks status``;
- a shared name: the two are about one subject, or one names the other's: a
  CROSS_REFERENCE needs it. A code or label word of one that the other uses, specific in
  the domain's texts too (a title's "Source code" or "Supported features" are words every
  README says, not names); or a folder's word when both are in that folder (two sections
  of one man page) or the other says the folder's whole name ("pydantic" in pydantic-core's
  README), not one word of it: ``gcloud alpha managed kafka connectors
  create`` and ``... kafka consumer-groups delete`` share "kafka" as a family, and neither
  names the other (issue 37).

Cheap per pair: an entry's names and stemmed word set are made once, on its first pair (a
set lookup per name after that); the domain's word spread is counted from the words the
similarity counts anyway.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from brv_vc.format.entry import Entry
from brv_vc.index.terms import STOPWORDS, stem, tokens
from brv_vc.services.dream.similarity import words

# Why: a word used in at most this many folders of a domain, or this share of them, can
# name a subject (a package's name is in its own folder and a mention or two elsewhere);
# more, and it names a kind of section (every package has "Installation", every README
# "npm install"). Counted in entries, a package with four sections lost its name (issue 37).
SPECIFIC_MIN = 2
SPECIFIC_SHARE = 0.01
_CODE = re.compile(r"^(```|~~~)[^\n]*\n(.*?)^\1|`([^`\n]+)`", re.MULTILINE | re.DOTALL)


def _nameable(word: str) -> bool:
    return not word.isdigit() and word not in STOPWORDS


def _code(entry: Entry) -> str:
    return " ".join(m.group(2) or m.group(3) or "" for m in _CODE.finditer(entry.body))


def command(entry: Entry) -> str:
    """The command an entry's title names: its longest run of words its code says too.

    Two words at least, in the title's order (``brv hooks status`` in "Notes on brv hooks
    status", its code ``brv hooks status --json``); "" when the title names no command.
    """
    title = tokens(entry.title)
    if len(title) < 2:
        return ""
    code = f" {' '.join(tokens(_code(entry)))} "
    for size in range(len(title), 1, -1):
        for start in range(len(title) - size + 1):
            run = " ".join(title[start:start + size])
            if f" {run} " in code:
                return run
    return ""


def revisits(a: tuple[str, Entry], b: tuple[str, Entry]) -> bool:
    """One title holds the other, and not as a narrower heading: one subject said again.

    Each side is (path, entry). "Retry policy" and "Retry policy for uploads", "COMMANDS"
    and "Notes on commands" or "editres commands" (its folder's own name) revisit one
    subject; "TREE COMMANDS" is a subsection of editres(1)'s "COMMANDS", not it again: a
    word right before the shorter title's words in the longer one narrows it (a compound
    heading), unless it is a stop word ("More on", "About") or a word of its own folders.
    """
    (_, one), (_, two) = a, b
    x, y = " ".join(one.title.lower().split()), " ".join(two.title.lower().split())
    if not (x and y and (x in y or y in x)):
        return False
    (path, longer), (_, shorter) = (a, b) if len(x) >= len(y) else (b, a)
    outer, inner = tokens(longer.title), tokens(shorter.title)
    folders = set(tokens(" ".join(path.split("/")[1:-1])))
    for start in range(1, len(outer) - len(inner) + 1) if inner else ():
        if outer[start:start + len(inner)] == inner:
            word = outer[start - 1]
            if word not in STOPWORDS and word not in folders and not word.isdigit():
                return False
    return True


def names(path: str, entry: Entry) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The words that name what an entry is about: its folders, its code, its label.

    Folders below the domain; code spans and blocks (less the folders' words); the label
    is its file name and title (less the others' words).
    """
    parts = path.removesuffix(".md").split("/")
    code = _code(entry)
    folders = frozenset(w for w in tokens(" ".join(parts[1:-1])) if not w.isdigit())
    coded = frozenset(w for w in tokens(code) if _nameable(w)) - folders
    label = frozenset(w for w in tokens(f"{parts[-1]} {entry.title}") if _nameable(w))
    return folders, coded, label - folders - coded


@dataclass(frozen=True)
class Evidence:
    """What a pair's names say: each side's own names and the names they share."""

    own_a: tuple[str, ...]
    own_b: tuple[str, ...]
    shared: tuple[str, ...]
    siblings: bool = False  # sibling folders of one domain, one named by a word of its own
    commands: tuple[str, str] | None = None  # the two commands the titles name, if two

    @property
    def two_subjects(self) -> bool:
        """Two subjects: a template filled twice, sibling folders or titles naming two things.

        Each side names something the other never mentions, the two sit in sibling
        folders of a domain that name different things, or their titles name two commands.
        """
        return bool(self.own_a and self.own_b) or self.siblings or self.commands is not None

    def why(self) -> str:
        """A reason line: the names that tell the two subjects apart."""
        if self.commands is not None:
            return f"different commands ({self.commands[0]} / {self.commands[1]})"
        return (f"different subjects ({', '.join(self.own_a[:3]) or 'its folder'} / "
                f"{', '.join(self.own_b[:3]) or 'its folder'})")


class Subjects:
    """The domain's word spread, and the names and word sets of the entries asked about.

    ``count`` is given each domain entry's path and words once
    (consolidate counts them anyway); ``limit`` is the most folders a specific word may be
    used in. An entry's names and word set
    are made on first use (only entries in a candidate pair are ever asked) and kept until
    :meth:`forget` (consolidate forgets them with each group's corpus: memory).
    """

    def __init__(self) -> None:
        self._spread: dict[str, int] = {}
        self._last: dict[str, int] = {}  # word -> the number of the last folder it was in
        self._folders: dict[str, int] = {}  # folder -> its number
        self._labels: dict[str, int] = {}  # the same, of the words of file names and titles
        self._last_label: dict[str, int] = {}
        self._known: dict[str, _Known] = {}

    def count(self, path: str, entry: Entry, words: list[str]) -> None:
        """One domain entry's words and label words (a word counts once a folder)."""
        folders = self._folders
        now = folders.setdefault(path.rsplit("/", 1)[0], len(folders))
        for spread, last, found in (
                (self._spread, self._last, words),
                (self._labels, self._last_label, tokens(f"{path.rsplit('/', 1)[-1][:-3]} "
                                                        f"{entry.title}"))):
            for word in found:
                if last.get(word) != now:
                    last[word] = now
                    spread[word] = spread.get(word, 0) + 1

    @property
    def limit(self) -> int:
        """The most folders of the domain a specific word may be used in."""
        return max(SPECIFIC_MIN, int(len(self._folders) * SPECIFIC_SHARE))

    def specific(self, word: str) -> bool:
        """Used in few enough of the domain's folders to name a subject."""
        return self._spread.get(word, 0) <= self.limit

    def forget(self) -> None:
        """Drops the entries' names and word sets (the domain's spread stays)."""
        self._known.clear()

    def _of(self, path: str, entry: Entry) -> _Known:
        made = self._known.get(path)
        if made is None:
            folders, coded, label = names(path, entry)
            named = frozenset(stem(w) for w in folders | coded | label)
            said = words(entry)
            used = frozenset(stem(w) for w in said) | named
            parts = tuple(" ".join(tokens(part)) for part in path.split("/")[1:-1])
            made = self._known[path] = _Known(folders, coded, label, named, used,
                                              command(entry), parts, f" {' '.join(said)} ")
        return made

    def evidence(self, a: tuple[str, Entry], b: tuple[str, Entry]) -> Evidence:
        """The evidence of a pair, each side given as (path, entry).

        A code name is the side's own when the other never uses the word; a folder or
        label word (file name, title: "update" of ``brv curate update``), when the other's
        names do not hold it (its text may well say "update": ``upsert`` does; curl's
        changelog names libcurl3-nss, its twin package). A folder's word is its subject's
        name however many folders use it, stop word or not (gnupg-l10n and libaom3: "gnupg"
        names five packages' folders; the man page of ``who``); code and label words must
        be specific.
        """
        one, two = self._of(*a), self._of(*b)
        own_a: list[str] = []
        own_b: list[str] = []
        shared: list[str] = []
        for mine, theirs, own in ((one, two, own_a), (two, one, own_b)):
            for word in sorted(mine.folders):
                if stem(word) not in theirs.named:
                    own.append(word)
                if self.specific(word) and any(  # one folder, or its whole name said
                        word in part.split() and (part in theirs.parts
                                                  or f" {part} " in theirs.said)
                        for part in mine.parts):
                    shared.append(word)
            for word in sorted(mine.coded):
                if self.specific(word):
                    (shared if stem(word) in theirs.used else own).append(word)
            for word in sorted(mine.label):
                if self._labels.get(word, 0) <= self.limit:
                    if stem(word) in theirs.used and self.specific(word):
                        shared.append(word)
                    if stem(word) not in theirs.named:
                        own.append(word)
        named_apart = _siblings(a[0], b[0]) and any(
            stem(w) not in theirs.named for mine, theirs in ((one, two), (two, one))
            for w in mine.folders)
        commands = ((one.command, two.command)
                    if one.command and two.command and one.command != two.command else None)
        return Evidence(tuple(own_a), tuple(own_b), tuple(dict.fromkeys(shared)), named_apart,
                        commands)


def _siblings(a: str, b: str) -> bool:
    """Two folders of one domain, neither of which holds the other."""
    one, two = a.split("/")[:-1], b.split("/")[:-1]
    if one[:1] != two[:1]:
        return False
    depth = min(len(one), len(two))
    return one[:depth] != two[:depth]


@dataclass(frozen=True)
class _Known:
    """One entry's names (folders, code, label), their stems, and every word it uses."""

    folders: frozenset[str]
    coded: frozenset[str]
    label: frozenset[str]
    named: frozenset[str]
    used: frozenset[str]
    command: str
    parts: tuple[str, ...]  # each folder's name below the domain, as words
    said: str  # its words in order, space-padded (a folder's whole name said in it)
