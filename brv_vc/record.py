"""``NamedTuple`` class syntax without importing ``typing`` (for the budgeted start paths).

``typing`` costs ~3-5 ms of CPU to import, and ``dataclasses`` (with ``inspect``) ~11 ms plus
~1 ms a class; ``brv vc status`` (budgeted at 1.5x a plain ``git status``), ``vc pull``
(2x ``git pull``) and the git hooks need only records. A layer-0 module, so the format
layer's records (``format.Entry``...) use it too. A class written
``class Change(NamedTuple):`` with this ``NamedTuple`` becomes a ``collections.namedtuple``
subclass with the same fields, defaults, docstring, methods and properties. Type checkers
read ``typing.NamedTuple`` (and ``typing.Protocol``, ``object`` at run time) from here, so a
module writes one line, ``from brv_vc.record import NamedTuple``, and both read the same class.
"""

from __future__ import annotations

import sys
from collections import namedtuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any
    from typing import NamedTuple as NamedTuple
    from typing import Protocol as Protocol
else:
    from _collections import _tuplegetter

    Protocol = object  # structural types are only checked by type checkers

    class _RecordMeta(type):
        def __new__(mcls, name: str, bases: tuple[type, ...], ns: dict[str, Any]) -> Any:
            if not bases:  # NamedTuple itself
                return super().__new__(mcls, name, bases, ns)
            fields = tuple(ns.get("__annotations__", {}))
            defaults = [ns[f] for f in fields if f in ns]
            base = _namedtuple(name, fields, defaults, ns.get("__module__"))
            body = {k: v for k, v in ns.items() if k not in fields}
            body["__slots__"] = ()
            return type(name, (base,), body)

    # collections.namedtuple compiles each class's __new__ with eval (~60 us of ~130 a
    # class; a commit or pull defines ~35 records): these are the very lambdas it compiles
    # (``lambda _cls, <fields>: _tuple_new(_cls, (<fields>))``), compiled once into this
    # module's .pyc, one per arity; a class gets a copy with its field names (and eval's
    # flags: no __future__ flag of this module).
    _tuple_new = tuple.__new__
    _NEW = (
        None,
        lambda _cls, a: _tuple_new(_cls, (a,)),
        lambda _cls, a, b: _tuple_new(_cls, (a, b)),
        lambda _cls, a, b, c: _tuple_new(_cls, (a, b, c)),
        lambda _cls, a, b, c, d: _tuple_new(_cls, (a, b, c, d)),
        lambda _cls, a, b, c, d, e: _tuple_new(_cls, (a, b, c, d, e)),
        lambda _cls, a, b, c, d, e, f: _tuple_new(_cls, (a, b, c, d, e, f)),
        lambda _cls, a, b, c, d, e, f, g: _tuple_new(_cls, (a, b, c, d, e, f, g)),
        lambda _cls, a, b, c, d, e, f, g, h: _tuple_new(_cls, (a, b, c, d, e, f, g, h)),
        lambda _cls, a, b, c, d, e, f, g, h, i: _tuple_new(_cls, (a, b, c, d, e, f, g, h, i)),
        lambda _cls, a, b, c, d, e, f, g, h, i, j: _tuple_new(_cls, (a, b, c, d, e, f, g, h, i, j)),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k: _tuple_new(_cls, (a, b, c, d, e, f, g, h, i, j, k)),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, q: _tuple_new(_cls, (a, b, c, d, e, f, g, h, i, j, k, q)),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, q, m: _tuple_new(_cls, (a, b, c, d, e, f, g, h, i, j, k, q, m)),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, q, m, n: _tuple_new(_cls, (a, b, c, d, e, f, g, h, i, j, k, q, m, n)),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, q, m, n, o: _tuple_new(_cls, (a, b, c, d, e, f, g, h, i, j, k, q, m, n, o)),
        lambda _cls, a, b, c, d, e, f, g, h, i, j, k, q, m, n, o, p: _tuple_new(_cls, (a, b, c, d, e, f, g, h, i, j, k, q, m, n, o, p)),
    )

    def _namedtuple(name: str, fields: tuple[str, ...], defaults: list[Any],
                    module: str | None) -> type:
        """``namedtuple(name, fields, defaults=defaults, module=module)``, without its eval.

        The same class (namespace, methods, their names and docs, the field properties);
        its ``__new__`` is :data:`_NEW`'s lambda of that arity, with the fields' names.
        """
        if not 0 < len(fields) < len(_NEW) or any(f.startswith("_") for f in fields):
            return namedtuple(name, fields, defaults=defaults, module=module)
        fields = tuple(map(sys.intern, fields))
        count = len(fields)
        arg_list = ", ".join(fields) + ("," if count == 1 else "")
        code = _NEW[count].__code__.replace(co_varnames=("_cls", *fields), co_filename="<string>",
                                            co_firstlineno=1, co_flags=0xFFFF & _NEW[1].__code__.co_flags)
        new = type(_NEW[1])(code, {"_tuple_new": tuple.__new__, "__builtins__": {},
                                   "__name__": f"namedtuple_{name}"})
        new.__name__ = "__new__"
        new.__doc__ = f"Create new instance of {name}({arg_list})"
        new.__defaults__ = tuple(defaults)
        # the rest as collections.namedtuple (Python 3.11-3.13) builds it
        field_defaults = dict(reversed(list(zip(reversed(fields), reversed(defaults), strict=False))))
        repr_fmt = "(" + ", ".join(f"{field}=%r" for field in fields) + ")"
        tuple_new = tuple.__new__

        @classmethod  # type: ignore[misc]
        def _make(cls: type, iterable: Any) -> Any:
            result = tuple_new(cls, iterable)
            if len(result) != count:
                raise TypeError(f"Expected {count} arguments, got {len(result)}")
            return result

        _make.__func__.__doc__ = f"Make a new {name} object from a sequence or iterable"

        def _replace(self: Any, /, **kwds: Any) -> Any:
            result = self._make(map(kwds.pop, fields, self))
            if kwds:
                raise ValueError(f"Got unexpected field names: {list(kwds)!r}")
            return result

        _replace.__doc__ = f"Return a new {name} object replacing specified fields with new values"

        def __repr__(self: Any) -> str:
            "Return a nicely formatted representation string"  # noqa: D300, D415
            return self.__class__.__name__ + repr_fmt % self

        def _asdict(self: Any) -> dict[str, Any]:
            "Return a new dict which maps field names to their values."  # noqa: D300
            return dict(zip(self._fields, self, strict=False))

        def __getnewargs__(self: Any) -> tuple[Any, ...]:
            "Return self as a plain tuple.  Used by copy and pickle."  # noqa: D300
            return tuple(self)

        for method in (new, _make.__func__, _replace, __repr__, _asdict, __getnewargs__):
            method.__qualname__ = f"{name}.{method.__name__}"
        namespace = {"__doc__": f"{name}({arg_list})", "__slots__": (), "_fields": fields,
                     "_field_defaults": field_defaults, "__new__": new, "_make": _make,
                     "_replace": _replace, "__repr__": __repr__, "_asdict": _asdict,
                     "__getnewargs__": __getnewargs__, "__match_args__": fields}
        for index, field in enumerate(fields):
            namespace[field] = _tuplegetter(index, sys.intern(f"Alias for field number {index}"))
        result = type(name, (tuple,), namespace)
        if module is not None:
            result.__module__ = module
        return result

    class NamedTuple(metaclass=_RecordMeta):
        """Subclass it as ``typing.NamedTuple`` (annotated fields, optional defaults, methods)."""
