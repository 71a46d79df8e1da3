"""brv_vc.record builds, without namedtuple's eval, the very class collections.namedtuple builds."""

from __future__ import annotations

import copy
import pickle
from collections import namedtuple
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from brv_vc.record import NamedTuple

METHODS = ("__new__", "_replace", "__repr__", "_asdict", "__getnewargs__")
CODE = ("co_argcount", "co_posonlyargcount", "co_kwonlyargcount", "co_nlocals", "co_flags",
        "co_code", "co_consts", "co_names", "co_varnames", "co_filename", "co_name",
        "co_qualname", "co_firstlineno")


class Pickled(NamedTuple):
    """A record defined at module level: pickle finds it by name."""

    path: str
    size: int = 0


def _record(name: str, fields: list[str], defaults: list[Any]) -> type:
    """``class name(NamedTuple)`` with ``fields``, the last ones defaulted, one method."""
    body: dict[str, Any] = {"__module__": __name__, "__annotations__": dict.fromkeys(fields, "int"),
                            "__doc__": "A doc.", "twice": lambda self: self + self}
    body.update(zip(fields[len(fields) - len(defaults):], defaults, strict=True))
    return type(NamedTuple)(name, (NamedTuple,), body)  # type: ignore[no-any-return]


def _same(mine: Any, theirs: Any) -> None:
    """Two namedtuple classes built alike (attributes, methods' metadata, __new__'s code)."""
    for attr in ("__name__", "__qualname__", "__module__", "__doc__", "_fields",
                 "_field_defaults", "__match_args__", "__slots__"):
        assert getattr(mine, attr) == getattr(theirs, attr), attr
    assert set(vars(mine)) == set(vars(theirs))
    for name in METHODS:
        a, b = getattr(mine, name), getattr(theirs, name)
        for attr in ("__name__", "__qualname__", "__doc__", "__defaults__", "__kwdefaults__"):
            assert getattr(a, attr) == getattr(b, attr), (name, attr)
    made = vars(mine)["_make"].__func__, vars(theirs)["_make"].__func__
    assert (made[0].__qualname__, made[0].__doc__) == (made[1].__qualname__, made[1].__doc__)
    new, old = mine.__new__, theirs.__new__
    for attr in CODE:
        assert getattr(new.__code__, attr) == getattr(old.__code__, attr), attr
    assert new.__globals__ == old.__globals__
    for field in mine._fields:
        assert vars(mine)[field].__doc__ == vars(theirs)[field].__doc__


def _outcome(call: Any) -> Any:
    try:
        return call()
    except (TypeError, ValueError) as exc:
        return type(exc), str(exc).replace("Mine", "Theirs")


@given(st.integers(min_value=1, max_value=18), st.data())
def test_a_record_is_the_namedtuple_it_stands_for(count: int, data: st.DataObject) -> None:
    fields = data.draw(st.lists(st.from_regex(r"[a-z][a-z0-9_]{0,6}", fullmatch=True)
                                .filter(lambda s: s not in ("if", "in", "is", "or", "as", "def")),
                                min_size=count, max_size=count, unique=True))
    defaults = list(range(data.draw(st.integers(min_value=0, max_value=count))))
    mine = _record("Mine", fields, defaults)
    base = mine.__mro__[1]
    _same(base, namedtuple("Mine", fields, defaults=defaults, module=__name__))
    theirs = type("Theirs", (namedtuple("Theirs", fields, defaults=defaults, module=__name__),),
                  {"__slots__": ()})
    values = list(range(100, 100 + count))
    one, two = mine(*values), theirs(*values)
    assert (repr(one).replace("Mine", "Theirs"), one._asdict(), tuple(one)) == (
        repr(two), two._asdict(), tuple(two))
    assert one.twice() == tuple(one) * 2
    calls = [lambda c: c(), lambda c: c(*values, 1), lambda c: c(**dict(zip(fields, values,
                                                                             strict=True))),
             lambda c: c._make(values[:-1]), lambda c: c._make(values),
             lambda c: c(*values)._replace(**{fields[0]: 7}),
             lambda c: c(*values)._replace(nope=1), lambda c: c(*values, **{fields[0]: 1})]
    for call in calls:
        got, want = _outcome(lambda call=call: call(mine)), _outcome(lambda call=call: call(theirs))
        assert (type(got) is tuple and got[:1] == want[:1] and (
            not isinstance(got[0], type) or got == want)) or tuple(got) == tuple(want)


def test_records_pickle_copy_and_compare_as_tuples() -> None:
    item = Pickled("a.md", 3)
    assert pickle.loads(pickle.dumps(item)) == item
    assert type(pickle.loads(pickle.dumps(item))) is Pickled
    assert copy.deepcopy(item) == item == ("a.md", 3)
    assert Pickled("b.md") == ("b.md", 0)
    assert Pickled.__new__.__code__.co_varnames == ("_cls", "path", "size")
    with pytest.raises(TypeError, match=r"missing 1 required positional argument: 'path'"):
        Pickled()  # type: ignore[call-arg]


def test_a_field_with_an_underscore_is_refused_as_namedtuple_refuses_it() -> None:
    with pytest.raises(ValueError, match="Field names cannot start with an underscore"):
        _record("Bad", ["_hidden"], [])


def test_a_record_compiles_nothing(monkeypatch: pytest.MonkeyPatch) -> None:
    """namedtuple evals each __new__ (~60 us, ~35 records a commit); a record copies a compiled one."""
    import builtins

    def refused(*args: object) -> None:
        raise AssertionError("eval called")

    monkeypatch.setattr(builtins, "eval", refused)
    made = _record("Made", ["path", "size", "mode"], [0])
    assert made("a", 1) == ("a", 1, 0)
    with pytest.raises(AssertionError, match="eval called"):  # namedtuple's own would
        namedtuple("Old", ["path"])
