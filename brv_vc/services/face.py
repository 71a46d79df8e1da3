"""Lazy package faces (PEP 562).

A use-case package names its public functions and result types once, and importing the
package costs nothing until one of them is used.

Why lazy: ``brv search`` and ``brv vc status`` start a cold process on every call, and
an eager face would import every module of its package (the vc face alone pulls in merge,
clone and sync) on paths whose budget is counted in milliseconds (DESIGN.md).
"""

from __future__ import annotations

import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable


def lazy(package: str, homes: dict[str, str]) -> Callable[[str], object]:
    """Returns a module ``__getattr__`` that loads each public name from its home module.

    Args:
        package: the package's ``__name__``.
        homes: public name -> the package's module that defines it.

    Returns:
        The function to bind as the package's ``__getattr__``.
    """

    def __getattr__(name: str) -> object:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        module = f"{package}.{home}"
        __import__(module)  # importlib.import_module would cost importing importlib (~0.1 ms)
        value = getattr(sys.modules[module], name)
        setattr(sys.modules[package], name, value)  # the next lookup is a plain attribute
        return value

    return __getattr__
