"""tree/record.py's NamedTuple gives the records typing.NamedTuple gives, without typing."""

from __future__ import annotations

import pickle
import subprocess
import sys
from typing import NamedTuple as TypingNamedTuple

from conftest import REPO

from brv_vc.cli.plain import jsonable
from brv_vc.tree.record import NamedTuple


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


class One(NamedTuple):
    only: str


class TypedOne(TypingNamedTuple):
    only: str


class Nothing(NamedTuple):
    """No fields."""


class Labelled(Point):
    """A subclass with a method calling super()."""

    def __repr__(self) -> str:
        return "L" + super().__repr__()


def test_the_record_is_built_as_namedtuple_builds_one() -> None:
    """Without namedtuple's eval per class: same constructor, helpers and errors."""
    import copy

    for ours, theirs in ((Point, TypedPoint), (One, TypedOne)):
        assert ours._fields == theirs._fields
        assert ours._field_defaults == theirs._field_defaults
        assert ours.__match_args__ == theirs.__match_args__
        assert ours.__new__.__defaults__ == theirs.__new__.__defaults__
    assert Point(y=2, x=1) == TypedPoint(1, 2)
    assert Point._make([1, 2, "a"]) == (1, 2, "a")
    assert Point(1)._asdict() == TypedPoint(1)._asdict() == {"x": 1, "y": 0, "label": None}
    assert repr(One("a")) == "One(only='a')"
    assert One("a") == ("a",)
    assert copy.copy(Point(1, 2)) == Point(1, 2)
    assert copy.deepcopy(One("b")) == One("b")
    assert Point.x.__doc__ == TypedPoint.x.__doc__  # type: ignore[attr-defined]
    assert Nothing() == ()
    assert repr(Nothing()) == "Nothing()"
    assert Nothing.__doc__ == "No fields."
    assert repr(Labelled(1)) == "LLabelled(x=1, y=0, label=None)"
    assert Labelled(1).norm == 1
    assert isinstance(Labelled(1), Point)
    for bad, error in ((lambda: Point(), TypeError), (lambda: Point(1, 2, 3, 4), TypeError),
                       (lambda: Point(1)._replace(z=1), ValueError),
                       (lambda: Point._make([1]), TypeError), (lambda: Point(1, q=2), TypeError)):
        try:
            bad()
        except error:
            continue
        raise AssertionError(bad)
    match Point(5, 6):
        case Point(a, b):
            assert (a, b) == (5, 6)
