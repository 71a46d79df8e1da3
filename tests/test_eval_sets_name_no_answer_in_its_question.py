"""The harness's sets of other shapes (bench/eval_sets_shapes.py) label mechanically and never
give the answer away by its name: a package's, a man page's or a function's own name is removed
from its question; a missing source is DataMissing (the harness prints how to fetch it)."""

from __future__ import annotations

import gzip
from pathlib import Path

import pytest

from bench.eval_sets import DataMissing
from bench.eval_sets_shapes import debian, manpages, pycode

STATUS = """Package: logrotate
Section: admin
Description: Log rotation utility
 The logrotate utility is designed to simplify the administration of log files on a
 system which generates a lot of log files.
 .
 More text.

Package: tiny
Description: a tiny thing
"""

MAN = r""".TH printf 3 2023-02-05 "Linux man-pages 6.03"
.SH NAME
printf, fprintf \- formatted output conversion
.SH SYNOPSIS
.B #include <stdio.h>
.SH DESCRIPTION
The functions in the
.BR printf ()
family produce output according to a
.I format
as described below. """ + "Words of the page. " * 20 + "\n"

CODE = '''def parse_header(line):
    """Parse a header line into its name and value parts."""
    name, _, value = line.partition(":")
    return name.strip(), value.strip()
'''


def test_each_shape_names_no_answer_in_its_question(tmp_path: Path) -> None:
    (tmp_path / "debian").mkdir()
    (tmp_path / "debian" / "status").write_text(STATUS)
    (tmp_path / "debian" / "Packages").write_text("Package: other\nDescription: another one\n")
    (tmp_path / "manpages" / "man3").mkdir(parents=True)
    (tmp_path / "manpages" / "man3" / "printf.3.gz").write_bytes(gzip.compress(MAN.encode()))
    (tmp_path / "pycode" / "json").mkdir(parents=True)
    (tmp_path / "pycode" / "json" / "__init__.py").write_text(CODE)

    [deb] = debian(tmp_path)
    assert [(d.title, d.content) for d in deb.docs][:2] == [("logrotate", "Log rotation utility"),
                                                          ("tiny", "a tiny thing")]
    assert [q.text for q in deb.questions] == [
        "The utility is designed to simplify the administration of log files on a system "
        "which generates a lot of log files"]
    [man] = manpages(tmp_path)
    assert man.docs[0].title == "printf(3)"
    assert "NAME" not in man.docs[0].content
    assert [(q.text, set(q.relevant)) for q in man.questions] == [
        ("formatted output conversion", {"printf.3"})]
    [code] = pycode(tmp_path)
    assert code.docs[0].title == "json.parse_header"
    assert "Parse a header" not in code.docs[0].content
    assert [q.text for q in code.questions] == ["a line into its name and value parts"]


def test_a_missing_source_says_so(tmp_path: Path) -> None:
    for loader in (debian, manpages):
        with pytest.raises(DataMissing):
            loader(tmp_path)
