"""The installed package must carry every subpackage, the schemas and the hook shims."""

from __future__ import annotations

import ast
import configparser
import importlib.metadata
import re
from pathlib import Path

from brv_vc import resources

REPO = Path(__file__).resolve().parent.parent


def _listed_packages() -> set[str]:
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg")
    return {line.strip() for line in config["options"]["packages"].splitlines() if line.strip()}


def test_every_package_folder_is_listed_in_setup_cfg() -> None:
    on_disk = {
        ".".join(init.parent.relative_to(REPO).parts)
        for init in (REPO / "brv_vc").rglob("__init__.py")
    }
    missing = on_disk - _listed_packages()
    assert not missing, f"add these to [options] packages in setup.cfg: {sorted(missing)}"


def test_schemas_load_through_resources() -> None:
    for schema in sorted((REPO / "schemas").glob("*.schema.json")):
        name = schema.name.removesuffix(".schema.json")
        assert resources.load_schema(name)["$schema"].startswith("https://json-schema.org/")


def _required_distributions() -> set[str]:
    config = configparser.ConfigParser()
    config.read(REPO / "setup.cfg")
    names = set()
    for line in config["options"]["install_requires"].splitlines():
        line = line.split("#", 1)[0].strip()
        if line:
            names.add(re.split(r"[<>=!~\[ ;]", line, maxsplit=1)[0].lower())
    return names


def _imported_top_names() -> set[str]:
    names: set[str] = set()
    for module in (REPO / "brv_vc").rglob("*.py"):
        for node in ast.walk(ast.parse(module.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Import):
                names.update(alias.name.split(".")[0] for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module.split(".")[0])
    return names


def test_every_required_distribution_is_imported_by_brv() -> None:
    by_distribution: dict[str, set[str]] = {}
    for top, distributions in importlib.metadata.packages_distributions().items():
        for distribution in distributions:
            by_distribution.setdefault(distribution.lower(), set()).add(top)
    imported = _imported_top_names()
    unused = sorted(name for name in _required_distributions()
                    if not by_distribution.get(name, set()) & imported)
    assert not unused, f"install_requires lists distributions brv never imports: {unused}"
