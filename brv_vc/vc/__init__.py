"""Git: the ``git`` package, the only one that reaches git, then what stands on it.

In ``git/``: the binary through ``git/process``, objects through dulwich in ``git/objects``.
Above it: status, semantic diff, merge driver, sync and hooks.
"""
