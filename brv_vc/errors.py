"""The one exception root of brv and its documented exit codes.

Exit codes: 0 ok, 1 a domain error (bad input, conflict, refused operation), 2 usage,
3 internal bug (message + log path), 130 interrupted. The CLI translates every
:class:`BrvError` once, at its edge (``brv_vc.cli.main``).
"""

from __future__ import annotations

EXIT_OK = 0
EXIT_DOMAIN = 1
EXIT_USAGE = 2
EXIT_INTERNAL = 3
EXIT_INTERRUPTED = 130


class BrvError(Exception):
    """A domain error: something the user or agent can fix.

    Args:
        message: what happened, in one sentence.
        hint: what to do next (a command to run, a value to change).
        file: the file concerned, relative to the project when possible.
        key: the key path inside that file (``tags[2]``, ``operations[3].path``).
    """

    exit_code = EXIT_DOMAIN
    code = "error"

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        file: str | None = None,
        key: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.file = file
        self.key = key

    def to_dict(self) -> dict[str, str]:
        """Returns the error as a JSON-ready mapping (only the fields that are set)."""
        out = {"code": self.code, "message": self.message}
        for name in ("file", "key", "hint"):
            value = getattr(self, name)
            if value:
                out[name] = value
        return out


class UsageError(BrvError):
    """The command line itself is wrong (exit 2)."""

    exit_code = EXIT_USAGE
    code = "usage"


class OptionError(UsageError):
    """One option's value is out of its range; each face names the option its own way.

    The CLI says ``--limit must be between 1 and 50, got 500``; an MCP tool names its argument
    (``limit must be ...``, :meth:`in_argument_words`). ``hint`` may hold ``{name}``.
    """

    def __init__(self, name: str, problem: str, *, hint: str = "") -> None:
        self.name = name
        self.problem = problem
        self._hint = hint
        super().__init__(f"--{name} {problem}", hint=hint.format(name=f"--{name}") or None)

    def in_argument_words(self) -> dict[str, str]:
        """The error object naming a tool's argument ``name`` (the MCP face)."""
        out = {"code": self.code, "message": f"{self.name} {self.problem}", "key": self.name}
        if self._hint:
            out["hint"] = self._hint.format(name=self.name)
        return out


class NotInitializedError(BrvError):
    """No ``.brv/`` was found in this folder or any parent."""

    code = "not_initialized"


class FormatError(BrvError):
    """A knowledge file, config or operation does not follow the format."""

    code = "format"


class InvalidPathError(BrvError):
    """A path or name is invalid or escapes the context tree."""

    code = "invalid_path"


class NotFoundError(BrvError):
    """An entry, topic or file that the operation needs does not exist."""

    code = "not_found"


class ConflictError(BrvError):
    """The operation would overwrite or contradict existing state."""

    code = "conflict"


class StateError(BrvError):
    """Per-machine state under ``.brv/state/`` is damaged and cannot be rebuilt."""

    code = "state"


class GitError(BrvError):
    """git refused or failed; the message carries git's own words."""

    code = "git"


class PushRejected(GitError):
    """The remote refused a push that is not a fast-forward (a teammate pushed first).

    Apart from other git failures: ``brv vc sync`` pulls and pushes again on this one only.
    """


class ProviderError(BrvError):
    """The optional LLM provider failed (timeout, HTTP error, garbage reply)."""

    code = "provider"
