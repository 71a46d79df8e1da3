"""Git: the adapters, then status, semantic diff, merge driver, sync and hooks above them.

The adapters are the only modules that reach git: ``git`` (the binary), ``git_objects``
(object reads through dulwich) and ``git/prefetch`` (the early ``git status``).
"""
