"""What a brv hook says and skips in shell is written once, in ``vc/hook_missing.py``.

Two launchers start brv's hooks: the shim rendered from ``hooks/hook.sh`` and the line brv
writes into a hook manager's files (``hook_managers.hook_line``). How they find brv, the
skip of a hook the running brv command does itself (``BRV_REFRESHING``), the refusal of a
commit that stages knowledge and the shim's warning when brv is missing are rendered into
both from ``hook_missing``; neither the template nor another module spells them by hand.
``test_hook_line_agrees_with_shim.py`` runs the two launchers on the same cases; this test
fails when either one's words are edited away from ``hook_missing``'s.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from brv_vc.resources import hook_template
from brv_vc.vc import hook_missing
from brv_vc.vc.hook_managers import LINE_TAG, hook_line
from brv_vc.vc.hooks_install import HOOK_NAMES, render

PACKAGE = Path(hook_missing.__file__).resolve().parent.parent
# what only hook_missing may write: the shell's reading of the variable (in a Python f-string
# too: "${{BRV_REFRESHING-}}"), the messages' words
SPELLINGS = (f"${hook_missing.REFRESHING_ENV}", f"${{{hook_missing.REFRESHING_ENV}",
             f"{{{hook_missing.REFRESHING_ENV}-}}",
             "cannot find brv", "for the Python recorded at install", "was not refreshed")


def _written_by_hand() -> dict[str, list[str]]:
    """Each file of the package and the template, and which spellings it holds."""
    files = [hook_template(), *sorted(PACKAGE.rglob("*.py"))]
    found = {}
    for path in files:
        if path.name == "hook_missing.py" and path.parent.name == "vc":
            continue
        text = path.read_text(encoding="utf-8")
        held = [s for s in SPELLINGS if s in text]
        if held:
            found[str(path)] = held
    return found


def test_no_file_but_hook_missing_spells_the_hooks_skip_or_messages() -> None:
    assert _written_by_hand() == {}


@pytest.mark.parametrize("name", HOOK_NAMES)
def test_the_shim_says_and_skips_what_hook_missing_renders(name: str) -> None:
    # every line the template marks "rendered from vc/hook_missing.py", as rendered
    rendered = [line.split("  # rendered from vc/hook_missing.py")[0]
                for line in render(name, "/opt/py").decode().splitlines()
                if "  # rendered from vc/hook_missing.py" in line]
    python = "${PY:-none}"
    assert rendered == [
        f"if fast refreshing; then {hook_missing.skip_done('$HOOK')}; fi",
        f"if {hook_missing.found('$PY', '$PKG')}; then",
        hook_missing.legacy_stop(name),
        hook_missing.refusal(name, python, "$knowledge"),
        hook_missing.warning(name, python, "$0"),
    ]
    # only the refusing hook refuses; every other one warns instead
    assert (rendered[3] == ":") != (rendered[4] == ":")


@pytest.mark.parametrize("name", HOOK_NAMES)
def test_the_managers_line_skips_and_refuses_as_hook_missing_renders(name: str) -> None:
    line = hook_line(name, ".brv/context-tree")
    assert line.endswith(f" ;; esac  {LINE_TAG}")
    body = line.removesuffix(f"  {LINE_TAG}")
    skip = hook_missing.unless_done(name, "BODY").split("BODY")
    assert body.startswith(skip[0])
    assert body.endswith(skip[1])
    assert hook_missing.refusal(name, "${p:-none}", ".brv/context-tree") in body
    assert "warning" not in body  # the line is committed for teammates: it stays silent
