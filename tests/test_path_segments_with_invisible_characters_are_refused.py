"""A path segment holding a bidi control or another invisible character is refused, not folded."""

from __future__ import annotations

import pytest

from brv_vc.tree.project import Project
from tests.conftest import snapshot


@pytest.mark.parametrize(("path", "segment", "code", "name"), [
    ("auth\u202e/jwt", "auth\\u202e", "U+202E", "RIGHT-TO-LEFT OVERRIDE"),
    ("auth/\u2066jwt", "\\u2066jwt", "U+2066", "LEFT-TO-RIGHT ISOLATE"),
    ("auth/j\u200bwt", "j\\u200bwt", "U+200B", "ZERO WIDTH SPACE"),
    ("auth/jwt/\ufeffx", "\\ufeffx", "U+FEFF", "ZERO WIDTH NO-BREAK SPACE"),
])
def test_an_invisible_character_in_a_segment_is_refused(seeded: Project, brv, path: str,
                                                       segment: str, code: str,
                                                       name: str) -> None:
    before = snapshot(seeded.root)
    result = brv("curate", "add", path, "--title", "Folded", "--content", "x",
                 cwd=seeded.root)
    assert result.exit_code == 1
    assert f"segment '{segment}' holds the invisible character {code} ({name})" \
        in result.stderr
    assert f"hint: remove {code} from the name" in result.stderr
    assert snapshot(seeded.root) == before  # not folded into auth/jwt


def test_show_of_a_path_with_a_bidi_override_names_it(seeded: Project, brv) -> None:
    result = brv("show", "auth/jwt\u202e/token_rotation.md", cwd=seeded.root)
    assert result.exit_code == 1
    assert "segment 'jwt\\u202e' holds the invisible character U+202E" in result.stderr


def test_letters_of_any_script_are_still_names(seeded: Project, brv) -> None:
    result = brv("curate", "add", "café/設定", "--title", "Fine", "--content", "x",
                 cwd=seeded.root)
    assert result.exit_code == 0, result.stderr
    assert (seeded.tree / "cafe/設定/fine.md").is_file()
