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

from collections import namedtuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any
    from typing import NamedTuple as NamedTuple
    from typing import Protocol as Protocol
else:
    Protocol = object  # structural types are only checked by type checkers

    class _RecordMeta(type):
        def __new__(mcls, name: str, bases: tuple[type, ...], ns: dict[str, Any]) -> Any:
            if not bases:  # NamedTuple itself
                return super().__new__(mcls, name, bases, ns)
            fields = tuple(ns.get("__annotations__", {}))
            defaults = [ns[f] for f in fields if f in ns]
            base = namedtuple(name, fields, defaults=defaults,  # type: ignore[misc]
                              module=ns.get("__module__"))
            body = {k: v for k, v in ns.items() if k not in fields}
            body["__slots__"] = ()
            return type(name, (base,), body)

    class NamedTuple(metaclass=_RecordMeta):
        """Subclass it as ``typing.NamedTuple`` (annotated fields, optional defaults, methods)."""
