"""Sets of other shapes for ``bench/eval_retrieval.py``: short records, long documents, code.

Each label is derived mechanically from the source; the words that name the answer (a package's,
a page's or a function's name) are removed from its question, as tldr's are.

- **debian** (short records: a title and one line): every package of a Debian system's
  ``dpkg`` status (``{data}/debian/status``, long descriptions) plus every 16th record of
  ``apt-cache dumpavail`` (``{data}/debian/Packages``, distractors). An entry is titled with
  the package's name and holds its one-line description; a question is the first sentence
  of an installed package's long description. Licence: the packages' own (descriptions).
- **manpages** (long documents): the Linux man-pages of sections 2 and 3 (Debian
  ``manpages-dev``, ``{data}/manpages/man{2,3}``); an entry is a whole page but its NAME
  section (titled with its first name), a question the NAME line's description ("formatted
  output conversion"). Licence: the pages' own (GPL/BSD-style, man-pages project).
- **pycode** (code): functions and methods of CPython 3.11's standard library
  (``{data}/pycode/`` or the system's ``/usr/lib/python3.11``), an entry the function's
  source without its docstring (titled with its qualified name, filed under its module), a
  question its docstring's first line. Licence: PSF License Version 2.
"""

from __future__ import annotations

import ast
import gzip
import re
from pathlib import Path

from bench.eval_sets import DataMissing, Doc, EvalProject, Question

MISSING = {
    "debian": "mkdir -p {data}/debian && cp /var/lib/dpkg/status {data}/debian/ && "
              "apt-cache dumpavail | python3 bench/eval_sets_shapes.py every16 > "
              "{data}/debian/Packages",
    "manpages": "apt-get install manpages-dev && mkdir -p {data}/manpages && "
                "cp -r /usr/share/man/man2 /usr/share/man/man3 {data}/manpages/",
    "pycode": "apt-get install python3.11 (its standard library is read from "
              "/usr/lib/python3.11, or {data}/pycode)",
}

_WORD = re.compile(r"[\w'+.-]+")


def _without(text: str, names: set[str]) -> str:
    """``text`` without the words that name the answer (case-insensitive)."""
    kept = [w for w in _WORD.findall(text) if w.lower().strip(".") not in names]
    return " ".join(kept).strip(" .")


def _name_words(*names: str) -> set[str]:
    return {w for n in names for w in re.split(r"[^\w]+|_", n.lower()) if w} | {
        n.lower() for n in names}


# ------------------------------------------------------------------------------ debian
def _records(path: Path) -> list[dict[str, str]]:
    out = []
    for block in path.read_text("utf-8", errors="replace").split("\n\n"):
        fields: dict[str, str] = {}
        last = ""
        for line in block.splitlines():
            if line.startswith((" ", "\t")) and last:
                fields[last] += "\n" + line[1:]
            elif ":" in line:
                last, _, value = line.partition(":")
                fields[last] = value.strip()
        if "Package" in fields and "Description" in fields:
            out.append(fields)
    return out


def _first_sentence(long: str) -> str:
    text = " ".join(ln.strip() for ln in long.splitlines() if ln.strip() not in (".", ""))
    first = re.split(r"(?<=[a-z)])\.\s", text, maxsplit=1)[0]
    return " ".join(first.split()[:40])


def debian(data: Path) -> list[EvalProject]:
    """Package records (name + one-line description); questions from long descriptions."""
    status, packages = data / "debian" / "status", data / "debian" / "Packages"
    if not status.is_file() or not packages.is_file():
        raise DataMissing("the Debian package records (debian) are missing")
    proj = EvalProject("debian")
    seen: set[str] = set()
    for n, rec in enumerate([*_records(status), *_records(packages)]):
        name = rec["Package"]
        if name in seen:
            continue
        seen.add(name)
        short, _, long = rec["Description"].partition("\n")
        section = rec.get("Section", "misc").rsplit("/", 1)[-1]
        proj.docs.append(Doc(name, f"packages/{re.sub(r'[^a-z0-9-]', '-', section.lower())}",
                             name, short.strip() or name))
        question = _without(_first_sentence(long), _name_words(name)) if long else ""
        if n % 2 == 0 and len(question.split()) >= 4:
            proj.questions.append(Question(question, frozenset({name})))
    return [proj]


# ------------------------------------------------------------------------------ manpages
_FONT = re.compile(r"\\f(?:[BIRP]|\(\w\w|\[\w*\])")
_ESCAPES = {r"\-": "-", r"\(em": "-", r"\(en": "-", r"\e": "\\", r"\~": " ", r"\ ": " ",
            r"\&": "", r"\(aq": "'", r"\(dq": '"', r"\(lq": '"', r"\(rq": '"', r"\|": "",
            r"\(bu": "*", r"\(ti": "~", r"\(ha": "^"}


def roff_text(source: str) -> list[tuple[str, str]]:
    """(section heading, readable text) of a man page's roff source (macros dropped)."""
    sections: list[tuple[str, list[str]]] = [("", [])]
    for line in source.splitlines():
        if line.startswith(('.\\"', "'\\\"")):
            continue
        if line.startswith(".SH"):
            sections.append((line[3:].strip().strip('"'), []))
            continue
        if line.startswith("."):
            macro, _, rest = line.partition(" ")
            if macro in (".B", ".I", ".BI", ".IB", ".BR", ".RB", ".IR", ".RI", ".SS", ".TP",
                         ".IP", ".TQ", ".UR", ".MT"):
                line = rest.replace('"', "")
            else:
                continue
        line = _FONT.sub("", line)
        for esc, repl in _ESCAPES.items():
            line = line.replace(esc, repl)
        sections[-1][1].append(line)
    return [(head, "\n".join(lines).strip()) for head, lines in sections]


def manpages(data: Path) -> list[EvalProject]:
    """Whole man pages (sections 2 and 3) but NAME; questions from the NAME line."""
    root = data / "manpages"
    files = sorted([*root.glob("man2/*.gz"), *root.glob("man3/*.gz")])
    if not files:
        raise DataMissing("the Linux man-pages (manpages) are missing")
    proj = EvalProject("manpages")
    for path in files:
        parts = roff_text(gzip.decompress(path.read_bytes()).decode("utf-8", "replace"))
        name_line = next((t for h, t in parts if h == "NAME"), "")
        names, _, desc = " ".join(name_line.split()).partition(" - ")
        body = "\n\n".join(f"{h}\n{t}" for h, t in parts if h not in ("", "NAME") and t)
        if not names or not desc or len(body) < 200:
            continue
        listed = [n.strip() for n in names.split(",") if n.strip()]
        key = path.name.removesuffix(".gz")
        section = key.rsplit(".", 1)[-1]
        proj.docs.append(Doc(key, f"man/section-{section}", f"{listed[0]}({section})",
                             body[:20000]))
        question = _without(desc, _name_words(*listed))
        if len(question.split()) >= 2:
            proj.questions.append(Question(question, frozenset({key})))
    return [_unique_titles(proj)]


def _unique_titles(proj: EvalProject) -> EvalProject:
    seen: dict[tuple[str, str], int] = {}
    for i, d in enumerate(proj.docs):
        n = seen[(d.folder, d.title)] = seen.get((d.folder, d.title), 0) + 1
        if n > 1:
            proj.docs[i] = Doc(d.key, d.folder, f"{d.title} ({n})", d.content)
    return proj


# ------------------------------------------------------------------------------ pycode
PY_SKIP = ("test", "idlelib", "lib2to3", "tkinter", "turtledemo", "ensurepip", "site-packages",
           "dist-packages", "config-3", "__phello__", "pydoc_data", "encodings")


def _functions(path: Path, module: str) -> list[tuple[str, str, str]]:
    """(qualified name, first docstring line, source without the docstring) of each def."""
    text = path.read_text("utf-8", errors="replace")
    try:
        tree = ast.parse(text)
    except SyntaxError:
        return []
    lines = text.splitlines()
    out = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                doc = ast.get_docstring(child)
                if not doc or child.end_lineno is None:
                    continue
                first = doc.strip().split("\n\n")[0].replace("\n", " ")
                body = child.body[0]
                end = body.end_lineno or body.lineno
                src = lines[child.lineno - 1:body.lineno - 1] + lines[end:child.end_lineno]
                code = "\n".join(src).strip()
                if len(code.splitlines()) >= 3:
                    out.append((f"{module}.{prefix}{child.name}", first, code))
    visit(tree, "")
    return out


def pycode(data: Path) -> list[EvalProject]:
    """Standard-library functions (code without docstring); questions from docstrings."""
    root = data / "pycode" if (data / "pycode").is_dir() else Path("/usr/lib/python3.11")
    if not (root / "json" / "__init__.py").is_file():
        raise DataMissing("the Python 3.11 standard library (pycode) is missing")
    found = []
    for path in sorted(root.rglob("*.py")):
        rel = path.relative_to(root).as_posix()
        if any(part.startswith(PY_SKIP) for part in rel.split("/")) or rel.startswith("_"):
            continue
        module = rel.removesuffix(".py").removesuffix("/__init__").replace("/", ".")
        found += _functions(path, module)
    step = max(1, len(found) // 3000)
    proj = EvalProject("pycode")
    for n, (qual, first, code) in enumerate(found[::step][:3000]):
        module, _, name = qual.rpartition(".")
        proj.docs.append(Doc(qual, "python/" + module.split(".")[0], qual, code[:20000]))
        question = _without(first, _name_words(name))
        if n % 6 == 0 and len(question.split()) >= 4:
            proj.questions.append(Question(question, frozenset({qual})))
    return [_unique_titles(proj)]


if __name__ == "__main__":  # apt-cache dumpavail | python3 bench/eval_sets_shapes.py every16
    import sys

    recs = sorted((r for r in sys.stdin.read().split("\n\n") if r.startswith("Package:")),
                  key=lambda r: r.split("\n", 1)[0])
    sys.stdout.write("\n\n".join(recs[::16]) + "\n")
