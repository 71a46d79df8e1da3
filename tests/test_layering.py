"""DESIGN.md "Layers": each package imports only the layers above it, and only vc/git.py
talks to git. Parsed with ast, so an import hidden in a function counts too."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "brv_vc"

# rank of each top-level module or package; a module may import lower ranks and its own package
RANKS = {
    "errors": 0, "resources": 0, "clock": 0, "__init__": 0, "__main__": 8,
    "format": 1,
    "tree": 2,
    "lifecycle": 3, "llm": 3,
    "index": 4, "summary": 4,
    "vc": 5,
    "services": 6,
    "cli": 7, "mcp": 7,
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


def test_only_the_git_adapter_talks_to_git() -> None:
    offenders = []
    for path in _modules():
        rel = path.relative_to(PACKAGE).as_posix()
        if rel == "vc/git.py":
            continue
        for name in _imports(path):
            if name.split(".")[0] in {"git", "dulwich"} or (
                name == "subprocess" and not rel.startswith(("cli/", "mcp/"))
            ):
                offenders.append(f"{rel} imports {name}")
    assert offenders == []
