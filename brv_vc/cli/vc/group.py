"""The ``brv vc`` command group, gathered from its command groups' modules.

The services are loaded through the lazy ``brv_vc.services.vc`` face, so a command pays only
for the use case it runs ('brv vc status' must not import merge, diff and sync).
"""

from __future__ import annotations

import click

from brv_vc.cli.context import AppContext, say
from brv_vc.cli.start import hooks_notice
from brv_vc.cli.vc import branches, commits, diffs, recover, resolve, setup, sync


@click.group()
def vc() -> None:
    """Version control for the context tree: share knowledge with your team over git.

    Any git remote works (a path, file://, ssh, https), with knowledge-aware merges and diffs.

    \b
    Example:
      brv vc init
      brv vc remote add origin git@github.com:acme/knowledge.git
      brv vc add && brv vc commit -m "auth: token rotation" && brv vc push -u
    """


# Not after these: init/clone report the hooks they install; git runs textconv on each diff.
_QUIET = frozenset({"init", "clone", "textconv"})


@vc.result_callback()
def _hooks_notice(*_: object, **__: object) -> None:
    """After a vc command: says once when brv's commit checks will not run (health.py)."""
    ctx = click.get_current_context()
    app = ctx.find_object(AppContext)
    if ctx.invoked_subcommand in _QUIET or app is None:
        return
    hooks_notice(app.cwd, say)  # the fast paths' end too (cli/start.py)


for _command in (
    setup.init, setup.clone, commits.status, diffs.diff, commits.add, commits.commit,
    commits.log, branches.branch, branches.checkout, branches.merge, sync.fetch, sync.pull,
    sync.push, sync.sync_cmd, setup.remote, commits.reset, diffs.textconv, recover.recover,
    resolve.resolve,
):
    vc.add_command(_command)
