"""How a brv hook finds brv, and what it does when it cannot: one rule for both launchers.

Both launchers find brv the same way (:func:`found`: the recorded Python is there and the
package it ran from is still on disk, a stat; only when that file is gone is the Python
started to ask). Both end here when neither the recorded Python can import ``brv_vc`` nor
``brv`` is on PATH: the shim rendered from ``hooks/hook.sh`` (``hooks_install.render``) and the line
brv writes into a hook manager's files (``hook_managers.hook_line``). The rule: only
pre-commit may refuse, and only a commit that stages knowledge (it would otherwise pass
unchecked): the message below, exit 1, nothing committed. Every other commit and hook goes
on (the shim also warns in a brv project; the managers' line stays silent, because it is
committed for teammates who may not use brv). Both also skip, before any Python starts, a
hook the running brv command does itself (:func:`done_by_command`). Every word of shell
either launcher says about these is rendered from here (``tests/test_hook_words_have_one_home.py``);
``tests/test_hook_line_agrees_with_shim.py`` runs both launchers on the same cases.
"""

from __future__ import annotations


def found(python: str, package: str) -> str:
    """A ``sh`` condition: the brv that ``brv hooks install`` recorded is still there.

    Args:
        python: a shell word for the recorded interpreter (``$PY``).
        package: a shell word for the recorded package's ``__main__.py`` (``$PKG``).

    A stat of the package, not an interpreter start (~20-30 ms of CPU); an interpreter that
    cannot be run is no brv. With the package moved or unrecorded (a line or shim from an
    older brv) the interpreter is asked whether it still imports ``brv_vc``. No single
    quote, so ``sh -c '...'`` can carry it (the pre-commit framework's entry).
    """
    return (f'[ -n "{python}" ] && [ -x "{python}" ] && {{ [ -f "{package}" ] || '
            f'"{python}" -P -c "import brv_vc" 2>/dev/null; }}')


# the post-change hooks (comma-separated) the running brv command does itself after git
# returns (pull, merge and checkout run the post-change step in process): they do nothing.
# Read by run_hook through hook_env.done_by_command, rendered into both launchers here.
REFRESHING_ENV = "BRV_REFRESHING"


def done_by_command(hook: str) -> str:
    """The head of a ``sh`` ``case``: its branch runs when the running brv command does ``hook``.

    The shell spelling of ``hook_env.done_by_command`` (:data:`REFRESHING_ENV` names it among
    its comma-separated hooks); ``hook`` is a shell word (``$HOOK``, a hook's name). Complete
    it with the branch's commands and ``;;``: :func:`skip_done` (the shim) and
    :func:`unless_done` (the managers' line). No fork, no single quote.
    """
    return f'case ",${{{REFRESHING_ENV}-}}," in *",{hook},"*)'


def skip_done(hook: str) -> str:
    """One line of ``sh``: the shim ends (exit 0) when the running brv command does ``hook``."""
    return f"{done_by_command(hook)} exit 0 ;; esac"


def unless_done(hook: str, body: str) -> str:
    """One line of ``sh``: ``body``, unless the running brv command does ``hook`` itself.

    The managers' line cannot exit early (a husky file may hold the team's own commands
    after it), so the rest of it is the ``case``'s other branch.
    """
    return f"{done_by_command(hook)} ;; *) {body} ;; esac"


REFUSING_HOOK = "pre-commit"  # the one hook that refuses when brv is missing
# the hooks whose failure refuses what git is doing, a failed legacy hook's too; the others
# fail open (read by run_hook through hook_env.BLOCKING, rendered into the shim here)
BLOCKING = ("pre-commit", "pre-push")


def legacy_stop(hook: str) -> str:
    """One line of ``sh``: the shim's failed legacy hook (``$legacy``) stops a blocking hook."""
    return '[ "$legacy" != 0 ] && exit "$legacy"' if hook in BLOCKING else ":"


def refusal(hook: str, python: str, knowledge: str) -> str:
    """One line of ``sh``: with brv missing, refuse a commit that stages ``knowledge``.

    Args:
        hook: the git hook; for any hook but :data:`REFUSING_HOOK` the line is ``:``.
        python: a shell word for the interpreter recorded at install (``${PY:-none}``).
        knowledge: a shell word for the knowledge pathspec (``$knowledge``, ``.``).

    Both arguments are expanded inside double quotes; the line holds no single quote, so
    ``sh -c '...'`` can carry it (the pre-commit framework's entry).
    """
    if hook != REFUSING_HOOK:
        return ":"
    lines = (
        f"brv: commit refused: it changes knowledge ({knowledge}) but the brv git hook "
        "cannot find brv",
        f"  to check it (no brv_vc for the Python recorded at install: {python}; no brv "
        "on PATH).",
        "  Fix: install brv-vc and run: brv hooks install (or remove these hooks with",
        "  brv hooks uninstall); to commit without the check: git commit --no-verify",
    )
    words = " ".join(f'"{line}"' for line in lines)
    return (f'if ! git diff --cached --quiet -- "{knowledge}" 2>/dev/null; then '
            f'printf "%s\\n" {words} >&2; exit 1; fi')


def warning(hook: str, python: str, script: str) -> str:
    """One line of ``sh``: the shim's warning, in a brv project, that ``hook`` found no brv.

    Args:
        hook: the git hook; for :data:`REFUSING_HOOK` the line is ``:`` (its refusal said
            what matters; a commit that stages no knowledge passes silently).
        python: a shell word for the interpreter recorded at install (``${PY:-none}``).
        script: a shell word for the hook's own path (``$0``).

    Only the shim warns: the managers' line is committed for teammates who may not use brv.
    """
    if hook == REFUSING_HOOK:
        return ":"
    lines = (
        f"brv: warning: the brv git hook '{hook}' cannot find brv, so it did nothing",
        f"  (no brv_vc for the Python recorded at install: {python}; no 'brv' on PATH).",
        "  Knowledge was not validated and derived state (index, summaries) was not refreshed.",
        "  Fix: install brv-vc and run 'brv hooks install' again, or remove these hooks",
        f"  with 'brv hooks uninstall' (or delete {script}).",
    )
    words = " ".join(f'"{line}"' for line in lines)
    return f'printf "%s\\n" {words} >&2'
