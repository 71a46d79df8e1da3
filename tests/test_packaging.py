"""The installed package must carry every subpackage, the schemas and the hook shims."""

from __future__ import annotations

import configparser
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
