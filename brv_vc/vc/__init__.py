"""Git: the ``git`` package (the only one that reaches git: the binary through
``git/process``, objects through dulwich in ``git/objects``), then status, semantic diff,
merge driver, sync and hooks above it.
"""
