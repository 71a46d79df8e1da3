"""``NamedTuple`` class syntax without importing ``typing`` (for the budgeted start paths).

``typing`` costs ~3-5 ms of CPU to import, and ``dataclasses`` (with ``inspect``) ~11 ms plus
~1 ms a class; ``brv vc status`` (budgeted at 1.5x a plain ``git status``), ``vc pull``
(2x ``git pull``) and the git hooks need only records. A layer-0 module, so the format
layer's records (``format.Entry``...) use it too. A class written
``class Change(NamedTuple):`` with this ``NamedTuple`` becomes the tuple class
``collections.namedtuple`` would make, with the same fields, defaults, docstring, methods
and properties, at a fifth of its cost (below); type checkers
import ``typing.NamedTuple`` instead (``if TYPE_CHECKING``), so both read the same class.
"""

from __future__ import annotations

import collections
from operator import itemgetter
from types import FunctionType

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import CodeType
    from typing import Any


def _getter(index: int, doc: str) -> Any:  # pragma: no cover - a Python without the C one
    return property(itemgetter(index), doc=doc)


# the C accessor collections.namedtuple gives each field
_tuplegetter = getattr(collections, "_tuplegetter", _getter)


# ``collections.namedtuple`` compiles a ``__new__`` for every class with ``eval`` and makes
# five closures (~75 us a class; the vc commit path defines ~35 records, ~2.5 ms). The same
# ``__new__`` bytecode serves every record with as many fields (only the argument names
# differ: ``code.replace``), and the helpers below read ``_fields`` instead of closures.
_NEW_CODE: dict[int, CodeType] = {}


def _new(name: str, fields: tuple[str, ...], defaults: tuple[Any, ...]) -> Any:
    code = _NEW_CODE.get(len(fields))
    if code is None:
        args = ", ".join(f"_{i}" for i in range(len(fields))) + ("," if len(fields) == 1 else "")
        code = eval(f"lambda _cls{', ' if args else ''}{args}: _tuple_new(_cls, ({args}))",
                    {"_tuple_new": tuple.__new__, "__builtins__": {}}).__code__
        _NEW_CODE[len(fields)] = code
    space = {"_tuple_new": tuple.__new__, "__builtins__": {}, "__name__": f"namedtuple_{name}"}
    new = FunctionType(code.replace(co_varnames=("_cls", *fields)), space, "__new__",
                       defaults)
    new.__doc__ = f"Create new instance of {name}({', '.join(fields)})"
    return new


def _make(cls: Any, iterable: Any) -> Any:
    """Make a new record from a sequence or iterable."""
    result = tuple.__new__(cls, iterable)
    if len(result) != len(cls._fields):
        raise TypeError(f"Expected {len(cls._fields)} arguments, got {len(result)}")
    return result


def _replace(self: Any, /, **kwds: Any) -> Any:
    """Return a new record replacing specified fields with new values."""
    result = self._make(map(kwds.pop, self._fields, self))
    if kwds:
        raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
    return result


def _repr(self: Any) -> str:
    """Return a nicely formatted representation string."""
    pairs = ", ".join(f"{field}={value!r}" for field, value in zip(self._fields, self, strict=True))
    return f"{self.__class__.__name__}({pairs})"


def _asdict(self: Any) -> dict[str, Any]:
    """Return a new dict which maps field names to their values."""
    return dict(zip(self._fields, self, strict=True))


def _getnewargs(self: Any) -> tuple[Any, ...]:
    """Return self as a plain tuple.  Used by copy and pickle."""
    return tuple(self)


class _RecordMeta(type):
    def __new__(mcls, name: str, bases: tuple[type, ...], ns: dict[str, Any]) -> Any:
        if not bases:  # NamedTuple itself
            return super().__new__(mcls, name, bases, ns)
        fields = tuple(ns.get("__annotations__", {}))
        if len(set(fields)) != len(fields) or any(f.startswith("_") for f in fields):
            raise ValueError(f"{name}: field names must be unique and not start with '_'")
        defaults = tuple(ns[f] for f in fields if f in ns)
        body: dict[str, Any] = {
            "__slots__": (), "_fields": fields, "__match_args__": fields,
            "_field_defaults": dict(zip(fields[len(fields) - len(defaults):], defaults, strict=True)),
            "__new__": _new(name, fields, defaults), "_make": classmethod(_make),
            "_replace": _replace, "__repr__": _repr, "_asdict": _asdict,
            "__getnewargs__": _getnewargs}
        for index, field in enumerate(fields):
            body[field] = _tuplegetter(index, f"Alias for field number {index}")
        body.update((k, v) for k, v in ns.items() if k not in fields)
        return type(name, (tuple,), body)


class NamedTuple(metaclass=_RecordMeta):
    """Subclass it as ``typing.NamedTuple`` (annotated fields, optional defaults, methods)."""
