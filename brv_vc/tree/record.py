"""``NamedTuple`` class syntax without importing ``typing`` (for the budgeted start paths).

``typing`` costs ~3-5 ms of CPU to import; ``brv vc status`` (budgeted at 1.5x a plain
``git status``) and the git hooks need only records. A class written
``class Change(NamedTuple):`` with this ``NamedTuple`` becomes a ``collections.namedtuple``
subclass with the same fields, defaults, docstring, methods and properties; type checkers
import ``typing.NamedTuple`` instead (``if TYPE_CHECKING``), so both read the same class.
"""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


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
