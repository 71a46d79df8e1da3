"""Real templated text on this machine, split into sections as a team's import would.

Helpers of bench/dream_pairs.py (issue 37). Each reader yields ``(subject, [(heading,
text), ...])``: one subject (a man page, a Debian package, a Python package, a brv doc)
and its sections in order. Nothing is downloaded or kept: man pages (roff, parsed
minimally), ``/usr/share/doc/*/copyright`` and ``changelog.Debian.gz`` (Debian's
templates), the README of each installed Python package (its METADATA) and brv's docs/.
"""

from __future__ import annotations

import gzip
import random
import re
from collections.abc import Iterator
from email.parser import HeaderParser
from pathlib import Path

Sections = list[tuple[str, str]]
REPO = Path(__file__).resolve().parent.parent
MAX_CHARS = 2500  # of one section (a curate op takes more; entries this long are typical)
MIN_CHARS = 40

_FONT = re.compile(r"\\f(?:\[[^\]]*\]|\(..|.)")
_ESCAPE = re.compile(r"\\\(..|\\\*\(..|\\\*.|\\\[[^\]]*\]")


def _roff_line(line: str) -> str:
    line = _FONT.sub("", line)
    line = line.replace("\\-", "-").replace("\\ ", " ").replace("\\&", "").replace("\\e", "\\")
    line = line.replace("\\/", "").replace("\\,", "").replace("\\c", "")
    return _ESCAPE.sub("", line)


def _man_sections(text: str) -> Sections:
    out: Sections = []
    heading, lines = "", []
    for raw in text.splitlines():
        if raw.startswith(".SH"):
            if heading:
                out.append((heading, "\n".join(lines)))
            heading, lines = raw[3:].strip().strip('"').strip(), []
        elif raw.startswith((".\\\"", "'\\\"")):
            continue
        elif raw.startswith((".PP", ".P ", ".LP", ".TP", ".IP", ".sp", ".br")) or raw == ".P":
            lines.append("")
            rest = raw.split(None, 1)
            if raw.startswith(".IP") and len(rest) > 1:
                lines.append(_roff_line(rest[1].strip('"')))
        elif raw.startswith((".B ", ".I ", ".BR ", ".IR ", ".BI ", ".RB ", ".RI ", ".IB ")):
            lines.append(_roff_line(raw.split(None, 1)[1].replace('"', "")))
        elif raw.startswith("."):
            continue
        elif heading:
            lines.append(_roff_line(raw))
    if heading:
        out.append((heading, "\n".join(lines)))
    return out


def _clean(text: str) -> str:
    text = re.sub(r"\n{3,}", "\n\n", text.strip())
    text = re.sub(r"^(<{7}|={7}|>{7})", r" \1", text, flags=re.MULTILINE)  # curate's hint
    return text[:MAX_CHARS].rsplit("\n", 1)[0] if len(text) > MAX_CHARS else text


def man(count: int, most: int, skip: list[str], seed: int = 1) -> Iterator[tuple[str, Sections]]:
    """Pages of /usr/share/man/man1 (a seeded sample): up to ``most`` sections each.

    A family of pages (the word before the first ``_``, ``-`` or ``.``: gcloud has 16,000 of
    17,800 here) gives at most a third of the sample, so one generator does not make it.
    """
    pages = sorted(Path("/usr/share/man/man1").glob("*.1.gz"))
    random.Random(seed).shuffle(pages)
    taken = 0
    families: dict[str, int] = {}
    for page in pages:
        if taken >= count:
            return
        family = re.split(r"[_.-]", page.name, maxsplit=1)[0]
        if families.get(family, 0) >= count // 3:
            continue
        try:
            text = gzip.decompress(page.read_bytes()).decode("utf-8", "replace")
        except (OSError, EOFError):
            continue
        if text.startswith(".so "):
            continue  # an alias of another page
        sections = [(h.title(), _clean(t)) for h, t in _man_sections(text)
                    if h.upper() not in skip]
        sections = [(h, t) for h, t in sections if len(t) >= MIN_CHARS][:most]
        if len(sections) >= 2:
            taken += 1
            families[family] = families.get(family, 0) + 1
            yield page.name.removesuffix(".1.gz"), sections


def _stanzas(text: str) -> list[str]:
    return [s.strip() for s in re.split(r"\n\s*\n", text) if s.strip()]


def debian(count: int, wanted: list[str], seed: int = 2) -> Iterator[tuple[str, Sections]]:
    """Packages of /usr/share/doc: their copyright, license, changelog entry and README."""
    docs = sorted(p for p in Path("/usr/share/doc").iterdir()
                  if (p / "copyright").is_file() and not p.is_symlink())
    random.Random(seed).shuffle(docs)
    taken = 0
    for doc in docs:
        if taken >= count:
            return
        found: dict[str, str] = {}
        stanzas = _stanzas((doc / "copyright").read_text("utf-8", "replace"))
        files = [s for s in stanzas if s.startswith("Files:")]
        found["Copyright"] = _clean("\n\n".join(stanzas[:1] + files[:1]))
        licences = [s for s in stanzas if s.startswith("License:") and "\n" in s]
        if licences:
            found["License"] = _clean(licences[0])
        log = doc / "changelog.Debian.gz"
        if log.is_file():
            text = gzip.decompress(log.read_bytes()).decode("utf-8", "replace")
            first = re.split(r"\n(?=\S)", text.strip(), maxsplit=2)
            found["Changelog"] = _clean("\n".join(first[:2]))
        readme = next(iter(sorted(doc.glob("README*"))), None)
        if readme is not None and readme.suffix != ".gz" and readme.is_file():
            found["README"] = _clean(readme.read_text("utf-8", "replace"))
        sections = [(h, found[h]) for h in wanted if len(found.get(h, "")) >= MIN_CHARS]
        if len(sections) >= 2:
            taken += 1
            yield doc.name, sections


_MD_HEADING = re.compile(r"^(#{1,3})\s+(.+?)\s*#*$")
_RST_RULE = re.compile(r"^([=\-~^*#])\1{2,}\s*$")


def _readme_sections(text: str) -> Sections:
    """Markdown (``#``..``###``) or reStructuredText (underlined) headings, fences kept."""
    out: Sections = []
    heading, lines, fenced = "", [], False
    rows = text.splitlines()
    for i, line in enumerate(rows):
        if line.lstrip().startswith(("```", "~~~")):
            fenced = not fenced
        nxt = rows[i + 1] if i + 1 < len(rows) else ""
        md = None if fenced else _MD_HEADING.match(line)
        rst = (not fenced and line.strip() and _RST_RULE.match(nxt)
               and len(nxt.strip()) >= len(line.strip()) - 1)
        if md or rst:
            if heading:
                out.append((heading, "\n".join(lines)))
            heading, lines = (md.group(2) if md else line.strip()), []
            continue
        if _RST_RULE.match(line) and not fenced:
            continue
        lines.append(line)
    if heading:
        out.append((heading, "\n".join(lines)))
    return out


def pypi(count: int, most: int) -> Iterator[tuple[str, Sections]]:
    """Installed Python packages' READMEs (METADATA bodies): their first sections."""
    taken = 0
    site = sorted((REPO / ".venv" / "lib").glob("python3*/site-packages/*.dist-info/METADATA"))
    for meta in site:
        if taken >= count:
            return
        message = HeaderParser().parsestr(meta.read_text("utf-8", "replace"))
        body = message.get_payload()
        name = str(message.get("Name", meta.parent.name.split("-")[0])).lower()
        if not isinstance(body, str):
            continue
        sections = [(h.strip("*` "), _clean(t)) for h, t in _readme_sections(body)]
        sections = [(h, t) for h, t in sections if len(t) >= MIN_CHARS and h][:most]
        if len(sections) >= 2:
            taken += 1
            yield name, sections


def docs(count: int, most: int) -> Iterator[tuple[str, Sections]]:
    """brv's own docs/*.md, one entry per ``##`` section."""
    for page in sorted((REPO / "docs").glob("*.md"))[:count]:
        sections = []
        for heading, text in _readme_sections(page.read_text("utf-8")):
            if len(text.strip()) >= MIN_CHARS:
                sections.append((heading.strip("`"), _clean(text)))
        if len(sections) >= 2:
            yield page.stem, sections[:most]
