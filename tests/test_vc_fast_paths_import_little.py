"""`brv vc` commands and hooks skip click and jsonschema; `vc status` imports no more than it needs."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from conftest import REPO
from hypothesis import given
from hypothesis import strategies as st
from vc_helpers import Team, in_project_app, team  # noqa: F401

# urllib.parse (with ipaddress): pathlib's import of it is skipped by cli/entry.py
# contextlib, shlex, importlib, the layout rules: small, but every vc status process paid them
# hashlib loads OpenSSL (~2-3 ms): brv_vc/digest.py hashes with the interpreter's own modules
HEAVY = ("click", "yaml", "jsonschema", "dataclasses", "typing", "subprocess", "urllib.parse",
         "ipaddress", "contextlib", "shlex", "importlib", "brv_vc.tree.layout", "hashlib")
ROT = "auth/jwt/token_rotation.md"


def _python(script: str, cwd: Path | None = None, *, check: bool = True
            ) -> subprocess.CompletedProcess[str]:
    """Runs ``script`` in a fresh interpreter with this checkout first on its path."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("COVERAGE", "COV_CORE"))}
    env["PYTHONPATH"] = str(REPO)
    return subprocess.run([sys.executable, "-c", script], cwd=cwd, text=True, env=env,
                          capture_output=True, check=check)


def loaded(cwd: Path, *argv: str) -> tuple[int, list[str]]:
    """(exit code, which of HEAVY a real ``brv ARGV`` process imported).

    As the console script users run starts it (pip's script imports re and sys first);
    ``python -m brv_vc`` would add runpy's own imports (importlib, contextlib).
    """
    script = (f"import re, sys; sys.argv = ['brv', *{list(argv)!r}]\n"
              "code = 0\n"
              "try:\n    from brv_vc.cli.entry import main\n    main()\n"
              "except SystemExit as exc:\n    code = exc.code or 0\n"
              f"print(code, sorted(m for m in {HEAVY!r} if m in sys.modules), file=sys.stderr)")
    done = _python(script, cwd, check=False)
    code, _, names = done.stderr.strip().splitlines()[-1].partition(" ")
    return int(code), eval(names)  # a list of names, printed by the script above


def test_status_imports_none_of_them(team: Team) -> None:  # noqa: F811
    """git status is adopted as started (no subprocess); records are NamedTuples, no typing."""
    team.alice.edit(ROT, summary="changed")
    (team.alice.tree / "auth/jwt/new.md").write_text("---\ntitle: New\n---\nnew\n")
    team.alice.ok("vc", "status")  # the first one greps HEAD for committed markers (cached)
    for args in (("vc", "status"), ("vc", "status", "--json")):
        assert loaded(team.alice.root, *args) == (0, []), args


def test_in_project_status_imports_none_of_them(tmp_path: Path) -> None:
    """In-project, the repository's top is asked of git without subprocess too."""
    app = in_project_app(tmp_path, ROT)
    app.edit(ROT, summary="changed")
    app.ok("vc", "status")
    assert loaded(app.tree / "auth", "vc", "status") == (0, [])


def test_add_commit_push_pull_and_the_hooks_skip_click_and_jsonschema(team: Team) -> None:  # noqa: F811
    """Nor hashlib (OpenSSL), typing, contextlib or importlib: records are brv_vc/record.py's."""
    team.alice.edit(ROT, summary="changed again")
    steps = [(team.alice.root, ("vc", "add")), (team.alice.tree, ("hook-impl", "pre-commit")),
             (team.alice.root, ("vc", "commit", "-m", "change")),
             (team.alice.root, ("vc", "push")), (team.bob.root, ("vc", "pull")),
             (team.bob.tree, ("hook-impl", "post-merge", "0"))]
    for cwd, args in steps:
        code, names = loaded(cwd, *args)
        assert code == 0, args
        assert not {"click", "jsonschema", "hashlib", "typing", "contextlib", "importlib"} & set(
            names), (args, names)
    assert team.bob.text(ROT) == team.alice.text(ROT)  # the pull did pull


def test_add_imports_no_dataclasses_nor_typing(team: Team) -> None:  # noqa: F811
    """vc add's records are NamedTuples and git is spawned without subprocess."""
    team.alice.edit(ROT, summary="staged by a lean add")
    for args in (("vc", "add"), ("vc", "add", "--json")):
        code, names = loaded(team.alice.root, *args)
        assert code == 0, args
        assert not {"click", "jsonschema", "dataclasses", "typing", "subprocess"} & set(names), (
            args, names)
    assert team.alice.git("diff", "--cached", "--name-only").split() == [ROT]
    code, names = loaded(team.alice.root, "vc", "commit", "-m", "lean")
    assert code == 0
    assert "subprocess" not in names
    assert team.alice.git("log", "-1", "--format=%s").strip() == "lean"


def test_pathlib_loaded_by_the_entry_still_makes_file_uris_and_urllib_stays_real() -> None:
    """The stand-in lives only while pathlib loads: as_uri works, later imports get the real module."""
    script = ("import sys\n"
              "from brv_vc.cli.entry import _import_pathlib\n"
              "_import_pathlib()\n"
              "loaded = 'urllib.parse' in sys.modules\n"
              "from pathlib import Path\n"
              "uri = Path('/a b/c%d').as_uri()\n"
              "import urllib.parse\n"
              "print(loaded, uri, urllib.parse.urlsplit('http://h/p').netloc,"
              " urllib.parse.__spec__ is not None)")
    done = _python(script)
    assert done.stdout.split() == ["False", "file:///a%20b/c%25d", "h", "True"]


@given(st.text())
def test_the_drivers_quote_as_shlex_does(text: str) -> None:
    """configure._quote replaces shlex.quote (not imported on the status path): same strings."""
    import shlex

    from brv_vc.services.vc.configure import _quote

    assert _quote(text) == shlex.quote(text)


def test_a_pull_and_the_post_merge_hook_import_no_dataclasses(team: Team) -> None:  # noqa: F811
    """Their records are NamedTuples (brv_vc/record.py): dataclasses costs ~11 ms and ~1 ms a class."""
    team.alice.edit(ROT, summary="pulled by brv")
    team.alice.sync("one")
    code, names = loaded(team.bob.root, "vc", "pull")
    assert (code, "dataclasses" in names) == (0, False), names
    assert team.bob.text(ROT) == team.alice.text(ROT)
    team.alice.edit(ROT, summary="pulled by git")
    team.alice.sync("two")
    team.bob.git("-c", "core.hooksPath=/dev/null", "pull", "-q")
    code, names = loaded(team.bob.tree, "hook-impl", "post-merge", "0")
    assert (code, "dataclasses" in names) == (0, False), names
    assert "pulled by git" in (team.bob.tree / "auth/jwt/_index.md").read_text(encoding="utf-8")


@given(st.binary())
def test_the_digests_without_hashlib_are_hashlibs(data: bytes) -> None:
    """brv_vc.digest (the interpreter's _sha1/_sha256) gives hashlib's bytes, one part or two."""
    import hashlib

    from brv_vc import digest

    for mine, theirs in ((digest.sha1, hashlib.sha1), (digest.sha256, hashlib.sha256)):
        assert mine(data).hexdigest() == theirs(data).hexdigest()
        two = mine(data[:3])
        two.update(data[3:])
        assert two.digest() == theirs(data).digest()


def test_a_process_hashing_much_switches_to_openssl() -> None:
    """The built-in hashes serve small digests; past digest.SWITCH bytes, hashlib's (6x faster)."""
    script = ("import sys\n"
              "from brv_vc import digest\n"
              "digest.sha1(b'x' * 1000).hexdigest()\n"
              "small = '_hashlib' in sys.modules\n"
              "big = digest.sha256(b'y' * (digest.SWITCH + 1))\n"
              "print(small, '_hashlib' in sys.modules, type(big).__module__)")
    done = _python(script)
    assert done.stdout.split() == ["False", "True", "_hashlib"]


PATTERNS = [(r"(?<=[.!?])\s+(?=[A-Z0-9`*\"'(])", 0), (r"^###\s+(.+?)\s*$", 8), (r"[^\W_]{3,}", 0),
            (r"\b[a-z][a-z0-9+.-]*://\S+|\bwww\.\S+", 2)]


@given(st.text(alphabet="ab .!?#\nA_1", max_size=40))
def test_a_lazy_pattern_answers_as_the_compiled_one(text: str) -> None:
    """brv_vc.pattern.lazy stands for re.compile: same matches, splits and attributes."""
    import re

    from brv_vc.pattern import lazy

    for source, flags in PATTERNS:
        mine, theirs = lazy(source, flags), re.compile(source, flags)
        assert mine.split(text) == theirs.split(text)
        assert mine.findall(text) == theirs.findall(text)
        assert mine.sub("-", text) == theirs.sub("-", text)
        assert [m.span() for m in mine.finditer(text)] == [m.span() for m in theirs.finditer(text)]
        assert (mine.pattern, mine.flags) == (theirs.pattern, theirs.flags)
        assert "search" in vars(mine)  # compiled once: its methods are the instance's now
    data = text.encode()
    assert lazy(rb"[a!]+").findall(data) == re.findall(rb"[a!]+", data)


def test_the_summary_extracts_patterns_compile_only_when_used() -> None:
    """A vc process imports summary/extract for clip: its 17 patterns wait for their first use."""
    script = ("from brv_vc.summary import extract\n"
              "lazies = [v for v in vars(extract).values() if type(v).__name__ == 'lazy']\n"
              "print(len(lazies), sum(v._compiled is not None for v in lazies), end=' ')\n"
              "extract.clip('a ' * 400)\n"
              "print(sum(v._compiled is not None for v in lazies), end=' ')\n"
              "print(extract.sentences('# T\\nOne here. Two there!'))")
    done = _python(script)
    assert done.stdout == "17 0 0 ['One here.', 'Two there!']\n"


def test_in_project_commit_and_its_hooks_import_no_typing_nor_hashlib(tmp_path: Path) -> None:
    """In-project (code links, the code repository's own index) the paths stay as lean."""
    app = in_project_app(tmp_path, ROT)
    app.edit(ROT, summary="changed in-project")
    (app.root / "app.py").write_text("print('v2')\n")
    app.git("add", str(app.root / "app.py"))
    app.ok("vc", "add")
    lean = {"click", "jsonschema", "hashlib", "typing", "contextlib", "importlib", "dataclasses"}
    for args in (("hook-impl", "pre-commit"), ("vc", "commit", "-m", "lean in-project"),
                 ("hook-impl", "post-merge", "0")):  # this one writes the manifest (summary/scan)
        code, names = loaded(app.root, *args)
        assert code == 0, args
        assert not lean & set(names), (args, names)
    assert app.git("log", "-1", "--format=%s").strip() == "lean in-project"
