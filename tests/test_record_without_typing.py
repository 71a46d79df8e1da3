"""brv_vc/record.py's NamedTuple gives the records typing.NamedTuple gives, without typing."""

from __future__ import annotations

import pickle
import subprocess
import sys
from typing import NamedTuple as TypingNamedTuple

from conftest import REPO

from brv_vc.cli.plain import jsonable
from brv_vc.record import NamedTuple


class Point(NamedTuple):
    """A point."""

    x: int
    y: int = 0
    label: str | None = None

    @property
    def norm(self) -> int:
        return abs(self.x) + abs(self.y)


class TypedPoint(TypingNamedTuple):
    x: int
    y: int = 0
    label: str | None = None


def test_the_record_behaves_as_typing_namedtuple() -> None:
    ours, theirs = Point(3, -4), TypedPoint(3, -4)
    assert tuple(ours) == tuple(theirs) == (3, -4, None)
    assert ours._fields == theirs._fields == ("x", "y", "label")
    assert repr(ours) == "Point(x=3, y=-4, label=None)"
    assert ours.norm == 7
    assert Point.__doc__ == "A point."
    assert ours._replace(label="a") == Point(3, -4, "a")
    assert hash(ours) == hash(Point(3, -4))
    assert ours != Point(3, 4)
    assert jsonable(ours) == {"x": 3, "y": -4, "label": None}
    assert pickle.loads(pickle.dumps(ours)) == ours
    assert Point.__module__ == __name__
    assert not hasattr(ours, "__dict__")


def test_the_vc_status_records_load_no_typing() -> None:
    code = ("import sys; import brv_vc.vc.status, brv_vc.vc.repo, brv_vc.services.vc.changes, "
            "brv_vc.tree.config; print(sorted(m for m in ('typing', 'dataclasses') "
            "if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env={"PYTHONPATH": str(REPO), "PATH": "/usr/bin:/bin"}, check=True)
    assert done.stdout.strip() == "[]", done.stderr
