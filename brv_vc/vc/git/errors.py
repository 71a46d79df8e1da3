"""What a failed git command means: its kind from git's words, and brv's error for it.

The one home of git's failure wording: :func:`failure_kind` reads git's output (identity,
network, rejected, overwrite), :func:`translate` turns a failed run into the
:class:`GitError` (or :class:`PushRejected`) that says what to do next.
"""

from __future__ import annotations

import os

from brv_vc.errors import GitError, PushRejected

TYPE_CHECKING = False
if TYPE_CHECKING:
    from brv_vc.vc.git.process import Completed

IDENTITY_HINT = (
    'tell git who you are: git config --global user.email "you@example.com" && '
    'git config --global user.name "Your Name"'
)


_NETWORK_WORDS = (
    "could not resolve host", "connection refused", "unable to connect",
    "could not read from remote",
    "does not appear to be a git repository", "unable to access", "connection timed out",
    "no route to host", "repository not found", "network is unreachable",
)


def failure_kind(words: str) -> str:
    """Classifies git's error output: identity, network, rejected, overwrite or other."""
    low = words.lower()
    if "please tell me who you are" in low or "author identity unknown" in low or (
        "empty ident name" in low
    ):
        return "identity"
    # the remote's branch moved between its advertisement and its update (a teammate's push
    # landed in between): "! [remote rejected] main -> main (cannot lock ref ...: is at X
    # but expected Y)"; as a non-fast-forward, a pull and a new push settle it
    moved = "[remote rejected]" in low and "but expected" in low
    if "[rejected]" in low or "non-fast-forward" in low or "fetch first" in low or moved:
        return "rejected"
    if "would be overwritten" in low:
        return "overwrite"
    if any(word in low for word in _NETWORK_WORDS) or (
        "repository '" in low and "does not exist" in low
    ):
        return "network"
    return "other"


_LOCK_HELD = r"Unable to create '([^']+\.lock)': File exists"  # compiled when a git run fails


_TRANSPORT_RISKS = {"fd": "it reads and writes the brv process's own file descriptors, and "
                          "can hang", "ext": "it runs a command the URL names"}


def transport_refusal(name: str, label: str, *, stored: bool = True) -> GitError:
    """The refusal of a URL that names git's ``name::`` transport (``REFUSED_TRANSPORTS``).

    ``stored``: the URL is a remote's already (a push, a fetch), else one being given.
    """
    whose = "the remote's URL uses" if stored else "the URL uses"
    return GitError(
        f"{label} refused: {whose} git's '{name}::' transport, which brv never runs ("
        + _TRANSPORT_RISKS.get(name, "git's protocol.allow forbids it") + ")",
        hint=("point the remote at a URL (ssh, https, a path): brv vc remote set-url NAME URL"
              if stored else "give a URL (ssh, https, a path)")
        + "; for this transport, use plain git")


def refuse_transport(url: str, label: str) -> None:
    """Refuses a URL being given (remote add, set-url, clone) that names a refused transport.

    Raises:
        GitError: it does (nothing is stored or run).
    """
    from brv_vc.vc.git.process import refused_transport

    name = refused_transport(url)
    if name is not None:
        raise transport_refusal(name, label, stored=False)


def translate(
    args: tuple[str, ...] | list[str], proc: Completed, *,
    what: str | None = None,
) -> GitError:
    """Turns a failed git run into a GitError that says what to do next."""
    words = "\n".join(x for x in (proc.stderr.strip(), proc.stdout.strip()) if x)
    kind = failure_kind(words)
    label = what or f"git {' '.join(args[:2])}"
    import re  # only a failure needs it; keep it off the paths that succeed

    held = re.search(_LOCK_HELD, words)
    if held:
        name = os.path.basename(held.group(1))
        return GitError(f"{label} failed: git's {name} is held (another git process, a brv "
                        "write in progress, or one that was killed)\n" + words,
                        hint="if no other git runs here, run 'brv vc recover' (it removes a "
                             "stale lock only), then try again")
    refused = re.search(r"transport '([\w+-]+)' not allowed", words)
    if refused:
        return transport_refusal(refused.group(1), label)
    if kind == "identity":
        return GitError(f"{label} failed: git does not know who you are (user.name/user.email "
                        "are not set)", hint=IDENTITY_HINT)
    if kind == "network":
        return GitError(f"{label} failed: the remote cannot be reached\n{words}",
                        hint="check the URL ('brv vc remote'), your network and your git "
                             "credentials, then try again")
    if kind == "rejected":
        return PushRejected(f"{label} was rejected: the remote has commits you do not have",
                        hint="pull first ('brv vc pull'), then push again; nothing was lost")
    return GitError(f"{label} failed: {words}")
