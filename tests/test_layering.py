"""DESIGN.md "Layers": each package imports only the layers above it, and only the git
package (vc/git/) talks to git and builds git argv. Parsed with ast, so an import hidden in a function counts too."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "brv_vc"

# rank of each top-level module or package; a module may import lower ranks and its own package
RANKS = {
    "errors": 0, "resources": 0, "clock": 0, "interpreter": 0, "__main__": 8,
    "record": 0,  # the typing-free NamedTuple every layer's records may use
    "digest": 0,
    "environment": 0,  # the one reader of os.environ (see the environment rule below)
    "words": 0,  # counted nouns and agreeing verbs (1 entry describes, 2 entries describe)
    "scrub": 0,  # the one credential-masking rule every output edge applies
    "pattern": 0,  # a regular expression compiled on first use  # SHA-1 / SHA-256 without hashlib's OpenSSL import
    # the package's __init__ holds only __version__ and a lazy door to the Python API (api)
    "__init__": 8,
    "format": 1,
    "tree": 2,
    "lifecycle": 3, "llm": 3,
    "index": 4, "summary": 4,
    "vc": 5,
    "services": 6,
    "cli": 7, "api": 7,
    # the MCP face answers in the CLI's --json shapes, so it reuses the CLI's renderers
    "mcp": 8,
    # brv ui's pages: a face beside the CLI and MCP, over the same services
    "web": 8,
}


def _modules() -> list[Path]:
    return sorted(p for p in PACKAGE.rglob("*.py"))


def _layer(path: Path) -> str:
    rel = path.relative_to(PACKAGE)
    return rel.parts[0].removesuffix(".py")


def _imports(path: Path) -> list[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append(node.module)
            if node.module == "brv_vc.services":  # from brv_vc.services import vc
                found.extend(f"brv_vc.services.{alias.name}" for alias in node.names)
    return found


def test_every_package_has_a_rank() -> None:
    unknown = {_layer(p) for p in _modules()} - set(RANKS)
    assert not unknown, f"give these a rank in RANKS (see DESIGN.md Layers): {unknown}"


def test_layers_import_only_layers_above() -> None:
    violations = []
    for path in _modules():
        layer = _layer(path)
        for name in _imports(path):
            if not name.startswith("brv_vc."):
                continue
            target = name.split(".")[1]
            if target != layer and RANKS[target] >= RANKS[layer]:
                violations.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert violations == []


# the git adapters and what each may use to reach git: the binary, or objects through dulwich
GIT_ADAPTERS = {
    "vc/git/process.py": {"subprocess"},
    "vc/git/prefetch.py": {"subprocess"},
    "vc/git/objects.py": {"dulwich"},
}


def test_only_the_git_adapters_talk_to_git() -> None:
    offenders = []
    for path in _modules():
        rel = path.relative_to(PACKAGE).as_posix()
        for name in _imports(path):
            root = name.split(".")[0]
            reaches_git = root in {"git", "dulwich"} or (
                root == "subprocess" and not rel.startswith(("cli/", "mcp/"))
            )
            if reaches_git and root not in GIT_ADAPTERS.get(rel, set()):
                offenders.append(f"{rel} imports {name}")
    assert offenders == []


def test_each_git_adapter_exists() -> None:
    assert all((PACKAGE / rel).is_file() for rel in GIT_ADAPTERS)


# -- git argv only in vc/git/ (issue 39): elsewhere, typed questions (git.touches, git.compare) --

# what starts a git command from an argv the caller builds; in_worktree and ok_in_worktree are
# the doors KnowledgeRepo.git and .git_ok forward to
_GIT_RUNNERS = {"run", "start", "stream", "_git_bytes", "in_worktree", "ok_in_worktree"}


def _git_argv(tree: ast.AST) -> list[str]:
    """Where a module builds git argv: ``repo.git(...)``/``git_ok(...)``, a runner of the git
    package called with argv (``git.run([...])``), or a list or tuple starting with "git".

    A call that hands on its function's own ``*args`` untouched forwards argv built by its
    caller, which is found where that caller calls: it builds none.
    """
    runners = {alias.asname or alias.name for node in ast.walk(tree)
               if isinstance(node, ast.ImportFrom) and (node.module or "").startswith("brv_vc.vc.git")
               for alias in node.names if alias.name in _GIT_RUNNERS}
    forwarded: set[int] = set()  # ids of calls handing on their function's *args
    for func_node in ast.walk(tree):
        if isinstance(func_node, (ast.FunctionDef, ast.AsyncFunctionDef)) and func_node.args.vararg:
            name = func_node.args.vararg.arg
            forwarded.update(id(call) for call in ast.walk(func_node) if isinstance(call, ast.Call)
                             and any(isinstance(a, ast.Name) and a.id == name for a in call.args))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and id(node) not in forwarded:
            func = node.func
            if isinstance(func, ast.Attribute) and (func.attr in {"git", "git_ok"} or (
                    func.attr in _GIT_RUNNERS and isinstance(func.value, ast.Name)
                    and func.value.id == "git")):
                found.append(f"{ast.unparse(func)}(...) on line {node.lineno}")
            elif isinstance(func, ast.Name) and func.id in runners:
                found.append(f"{func.id}(...) on line {node.lineno}")
        elif isinstance(node, (ast.List, ast.Tuple)) and node.elts and isinstance(
                node.elts[0], ast.Constant) and node.elts[0].value == "git":
            found.append(f"a ['git', ...] argv on line {node.lineno}")
    return found


def test_git_argv_is_built_only_in_the_git_package() -> None:
    built = {}
    for path in _modules():
        rel = path.relative_to(PACKAGE).as_posix()
        if not rel.startswith("vc/git/") and (
                found := _git_argv(ast.parse(path.read_text(encoding="utf-8")))):
            built[rel] = found
    assert built == {}, "ask a typed question of brv_vc.vc.git instead (add one there)"


def test_the_git_argv_finder_sees_each_door() -> None:
    source = """
from brv_vc.vc.git import run as go
repo.git("log", "-1")
repo.git_ok("rev-parse", "HEAD")
git.run(["status"], top)
go(["fetch"], top)
argv = ["git", "log"]
git.in_worktree(repo, ["log"])
git.touches(top, paths)
def forward(self, *args):
    return git.in_worktree(self, args)
def builds(self, *args):
    return git.ok_in_worktree(self, ["log", *args])
"""
    assert [f.split(" on line")[0] for f in _git_argv(ast.parse(source))] == [
        "repo.git(...)", "repo.git_ok(...)", "git.run(...)", "go(...)", "a ['git', ...] argv",
        "git.in_worktree(...)", "git.ok_in_worktree(...)"]


# -- no SQL in services/ (issue 39): index/ owns the tables' statements -----------------------

_SQL = None  # the pattern of a statement, compiled on first use


def _sql(tree: ast.AST) -> list[str]:
    """Where a module runs SQL: an ``execute*`` call, or a string holding a statement."""
    global _SQL
    if _SQL is None:
        import re

        _SQL = re.compile(r"\bSELECT\b.+\bFROM\b|\bINSERT\s+(OR\s+\w+\s+)?INTO\b|"
                          r"\bUPDATE\s+\w+\s+SET\b|\bDELETE\s+FROM\b|\bCREATE\s+"
                          r"(TABLE|INDEX|VIRTUAL|TRIGGER|VIEW)\b|\bDROP\s+(TABLE|INDEX)\b|"
                          r"\bPRAGMA\s+\w+", re.DOTALL)
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and (
                node.func.attr in {"execute", "executemany", "executescript"}):
            found.append(f".{node.func.attr}(...) on line {node.lineno}")
        elif isinstance(node, ast.Constant) and isinstance(node.value, str) and _SQL.search(
                node.value):
            found.append(f"a statement on line {node.lineno}")
    return found


def test_services_write_no_sql() -> None:
    written = {}
    for path in _modules():
        rel = path.relative_to(PACKAGE).as_posix()
        if rel.startswith("services/") and (
                found := _sql(ast.parse(path.read_text(encoding="utf-8")))):
            written[rel] = found
    assert written == {}, ("ask a function of index/ (or of the module that owns the store: "
                           "lifecycle/ for brv.db's tables) instead; add one there")


def test_the_sql_finder_sees_statements_not_words() -> None:
    source = """
conn.execute(query)
rows = f"SELECT path FROM docs WHERE path IN ({marks})"
kind = "UPDATE"
hint = "use UPDATE or UPSERT, or DELETE the entry"
"""
    assert [f.split(" on line")[0] for f in _sql(ast.parse(source))] == [
        ".execute(...)", "a statement"]


# -- no module over 400 lines (issue 39): a longer one is split along a real seam -------------

MAX_LINES = 400


def test_no_module_is_over_400_lines() -> None:
    long = {path.relative_to(PACKAGE).as_posix(): n for path in _modules()
            if (n := len(path.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}, "split these along a seam (STYLE.md)"


# -- use-case packages (STYLE.md "Our own shape"): one face each, no circles ---------------

SERVICES = PACKAGE / "services"


def _use_cases() -> list[str]:
    return sorted(p.name for p in SERVICES.iterdir() if (p / "__init__.py").is_file())


def _owner(path: Path) -> str | None:
    """The use-case package a module belongs to, or None for the shared modules."""
    rel = path.relative_to(PACKAGE).parts
    return rel[1] if rel[0] == "services" and len(rel) > 2 else None


def test_nothing_outside_a_use_case_imports_its_private_modules() -> None:
    offenders = []
    for path in _modules():
        for name in _imports(path):
            parts = name.split(".")
            private = parts[:2] == ["brv_vc", "services"] and len(parts) > 3
            if private and parts[2] in _use_cases() and _owner(path) != parts[2]:
                offenders.append(f"{path.relative_to(PACKAGE)} imports {name}: "
                                 f"use the face, brv_vc.services.{parts[2]}")
    assert offenders == []


def test_every_name_a_face_exports_resolves() -> None:
    import importlib

    for package in _use_cases():
        face = importlib.import_module(f"brv_vc.services.{package}")
        modules = {p.stem for p in (SERVICES / package).glob("*.py")}
        for name in face.__all__:
            # a public name equal to a module's name would be shadowed by that submodule
            # once it is imported (the lazy face would then hand out a module)
            assert name not in modules, f"services.{package}: {name!r} is also a module name"
            assert getattr(face, name) is not None, f"services.{package}.{name}"


def _package_graph() -> dict[str, set[str]]:
    """Edges between use-case packages and the shared service modules."""
    graph: dict[str, set[str]] = {}
    for path in _modules():
        if path.relative_to(PACKAGE).parts[0] != "services":
            continue
        node = _owner(path) or path.stem
        for name in _imports(path):
            parts = name.split(".")
            if parts[:2] != ["brv_vc", "services"] or len(parts) < 3:
                continue
            target = parts[2]
            if target != node and target != "face":
                graph.setdefault(node, set()).add(target)
    return graph


def test_use_cases_depend_on_each_other_without_a_circle() -> None:
    graph = _package_graph()
    seen: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(node: str, path: list[str]) -> None:
        seen[node] = 1
        for target in sorted(graph.get(node, ())):
            assert seen.get(target) != 1, " -> ".join([*path, node, target])
            if target not in seen:
                visit(target, [*path, node])
        seen[node] = 2

    for node in sorted(graph):
        if node not in seen:
            visit(node, [])


def _module_graph(package: str) -> dict[str, set[str]]:
    """Edges between the modules of one use-case package (``__init__`` is the face)."""
    return _folder_graph(SERVICES / package)


def _circle(graph: dict[str, set[str]]) -> list[str]:
    """One import circle of ``graph``, or [] when there is none."""
    seen: dict[str, int] = {}  # 1 on the current path, 2 done

    def visit(node: str, path: list[str]) -> list[str]:
        seen[node] = 1
        for target in sorted(graph.get(node, ())):
            if seen.get(target) == 1:
                return [*path, node, target]
            if target not in seen and (found := visit(target, [*path, node])):
                return found
        seen[node] = 2
        return []

    for node in sorted(graph):
        if node not in seen and (found := visit(node, [])):
            return found
    return []


def test_modules_inside_a_use_case_import_each_other_without_a_circle() -> None:
    """STYLE.md: a request flows through stages once, each calling only the ones below it."""
    circles = {p: c for p in _use_cases() if (c := _circle(_module_graph(p)))}
    assert circles == {}, {p: " -> ".join(c) for p, c in circles.items()}


def test_the_circle_finder_sees_a_circle() -> None:
    assert _circle({"plan": {"view"}, "view": {"obstacles"}, "obstacles": {"plan"}}) == [
        "obstacles", "plan", "view", "obstacles"]
    assert _circle({"batch": {"build", "view"}, "build": {"view"}}) == []


def test_the_curate_stages_call_only_the_stages_below_them() -> None:
    """parse → resolve → build → check → apply → record, driven by batch: no stage calls another."""
    stages = ["parse", "resolve", "build", "check", "apply", "record"]
    graph = _module_graph("curate")
    assert set(stages) <= graph["batch"] | {"parse"}
    calls = {stage: sorted(graph.get(stage, set()) & {*stages, "batch"}) for stage in stages}
    assert calls == {stage: [] for stage in stages}


# -- every package: its modules import each other without a circle (issue 39) ---------------

# No known circle is left: cli/fast <-> fast_vc <-> hooks_cmd was cut (their shared start and
# texts are cli/start.py, cli/hook_text.py), vc/hook_managers <-> manager_config (the config
# merge and its snippet are manager_config's), summary/archive <-> archive_recovery (the
# archive's files are summary/archive_files.py), tree/config <-> llm_trust (the trusted
# settings are tree/llm_settings.py) and web/pages <-> site (the app is web/asgi.py).


def _folder_graph(folder: Path) -> dict[str, set[str]]:
    """Edges between the modules (and subpackages) of one package folder."""
    prefix = ".".join(("brv_vc", *folder.relative_to(PACKAGE).parts))
    members = {p.stem for p in folder.glob("*.py")} | {
        p.name for p in folder.iterdir() if (p / "__init__.py").is_file()}
    graph: dict[str, set[str]] = {}
    for path in folder.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                names = [f"{node.module}.{alias.name}" if node.module == prefix
                         and alias.name in members else node.module for alias in node.names]
            for name in names:
                if name == prefix:
                    target = "__init__"
                elif name.startswith(prefix + "."):
                    target = name.removeprefix(prefix + ".").split(".")[0]
                else:
                    continue
                if target != path.stem:
                    graph.setdefault(path.stem, set()).add(target)
    return graph


def _circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """Every import circle of ``graph``: its strongly connected parts of two or more modules."""
    order: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(node: str) -> None:
        order[node] = low[node] = len(order)
        stack.append(node)
        for target in sorted(graph.get(node, ())):
            if target not in order:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in stack:
                low[node] = min(low[node], order[target])
        if low[node] == order[node]:
            part = {stack.pop()}
            while node not in part:
                part.add(stack.pop())
            if len(part) > 1:
                found.append(part)

    for node in sorted(graph):
        if node not in order:
            visit(node)
    return found


def test_the_modules_of_every_package_import_each_other_without_a_circle() -> None:
    folders = sorted({p.parent for p in PACKAGE.rglob("__init__.py")})
    circles = [("/".join(f.relative_to(PACKAGE).parts) or "brv_vc", part)
               for f in folders for part in _circles(_folder_graph(f))]
    assert circles == [], "cut these along a seam (move the shared piece down): " + "; ".join(
        f"{name}: {' <-> '.join(sorted(part))}" for name, part in circles)


def test_the_every_package_circle_finder_sees_each_circle() -> None:
    assert _circles({"a": {"b"}, "b": {"a", "c"}, "c": {"d"}, "d": {"c"}, "e": {"a"}}) == [
        {"c", "d"}, {"a", "b"}]
    assert _circles({"batch": {"build", "view"}, "build": {"view"}}) == []


# The environment is read at one edge: brv_vc/environment.py names every variable brv honours
# and is the only module that touches os.environ (a command reads what it needs once and
# passes it down; a child process's environment comes from environment.child).
ENVIRONMENT_READERS = {"environment.py"}
_ENV_NAMES = {"environ", "environb", "getenv", "getenvb", "putenv", "unsetenv"}


def _environment_reads(path: Path) -> list[int]:
    lines = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Attribute) and node.attr in _ENV_NAMES:
            lines.append(node.lineno)  # os.environ, os.getenv, posix.environ...
        elif isinstance(node, ast.ImportFrom) and node.module in ("os", "posix") and any(
                alias.name in _ENV_NAMES for alias in node.names):
            lines.append(node.lineno)  # from os import environ
    return lines


def test_the_environment_is_read_only_at_its_edge() -> None:
    offenders = [f"{path.relative_to(PACKAGE)}:{line}" for path in _modules()
                 if path.relative_to(PACKAGE).as_posix() not in ENVIRONMENT_READERS
                 for line in _environment_reads(path)]
    assert offenders == [], "read it through brv_vc/environment.py (name the variable there)"


def test_the_environment_finder_sees_each_spelling(tmp_path: Path) -> None:
    spellings = ["import os\nos.environ.get('X')\n", "import os\nos.getenv('X')\n",
                 "from os import environ\n", "import os\nf(os.environ)\n",
                 "import os\nos.environ['X'] = '1'\n"]
    for number, text in enumerate(spellings):
        (tmp_path / f"m{number}.py").write_text(text)
        assert _environment_reads(tmp_path / f"m{number}.py"), text
    (tmp_path / "clean.py").write_text("environment = 1\nenv = {}\nenv.get('environ')\n")
    assert _environment_reads(tmp_path / "clean.py") == []
