"""Git: the adapters (``git``: the binary, ``git_objects``: dulwich, ``git_prefetch``), status,
semantic diff, merge driver, sync, hooks."""
