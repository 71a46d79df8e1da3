"""Files given on the command line (``--ops``, ``--file``, ``brv dream apply FILE``), read safely.

Each is checked before a byte is read: a FIFO, a device or a socket is refused at once
(``--ops /dev/zero`` once grew to 5 GB; a FIFO blocked forever), and a regular file above
its cap is refused from its size alone (a 50 MB ops file once took 30 s to be refused after
parsing). Stdin (``-``) is read up to the cap and no further.
"""

from __future__ import annotations

import os
import stat
import sys

from brv_vc.errors import FormatError
from brv_vc.format.limits import MAX_ENTRY_BYTES

# A batch holds operations, not a dump: 16 MiB is 400 entries at the 40,000-character
# content limit. Above it the file is refused from its size, before it is read or parsed.
MAX_OPS_BYTES = 16 << 20
# ``--file`` is one entry's content: an entry is at most 1 MiB (``format/limits.py``).
MAX_CONTENT_BYTES = MAX_ENTRY_BYTES

_KINDS = ((stat.S_ISFIFO, "a FIFO (named pipe)"), (stat.S_ISCHR, "a character device"),
          (stat.S_ISBLK, "a block device"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISDIR, "a folder"))


def _size(limit: int) -> str:
    return f"{limit >> 20} MiB" if limit >= 1 << 20 else f"{limit >> 10} KiB"


def _too_big(what: str, source: str, limit: int, size: str) -> FormatError:
    return FormatError(
        f"{what} file '{source}' is {size}, above brv's limit of {_size(limit)}; nothing was "
        "read or applied",
        file=source,
        hint="split it into smaller files" if what != "content" else
        "an entry holds at most 40,000 characters: split the knowledge into several entries",
    )


def read_source(source: str, what: str, limit: int = MAX_OPS_BYTES) -> bytes:
    """Reads FILE, or stdin for ``-``, refusing anything but a regular file within ``limit``.

    Raises:
        FormatError: the file does not exist, cannot be read, is not a regular file, or is
            larger than ``limit`` (checked from its size before reading).
    """
    if source == "-":
        stream = getattr(sys.stdin, "buffer", None)
        try:
            data = (stream.read(limit + 1) if stream is not None
                    else sys.stdin.read(limit + 1).encode())
        except OSError as exc:  # stdin redirected from a folder or from /proc/self/mem
            raise FormatError(f"{what} from stdin cannot be read: {exc.strerror or exc}",
                              file="<stdin>", hint="pipe a regular file into it") from None
        if len(data) > limit:
            raise _too_big(what, "<stdin>", limit, f"more than {_size(limit)}")
        return data
    try:
        # O_NONBLOCK: opening a FIFO with no writer would otherwise wait forever
        fd = os.open(source, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        raise FormatError(f"{what} file '{source}' does not exist", file=source) from None
    except IsADirectoryError:
        raise FormatError(f"{what} file '{source}' is a folder", file=source) from None
    except OSError as exc:
        raise FormatError(f"{what} file '{source}' cannot be read: {exc.strerror}",
                          file=source, hint="check the path and its permissions") from None
    try:
        # fstat before fdopen: fdopen of a folder's descriptor raises IsADirectoryError
        info = os.fstat(fd)
        for test, kind in _KINDS:
            if test(info.st_mode):
                raise FormatError(
                    f"{what} file '{source}' is {kind}, not a regular file; nothing was read",
                    file=source,
                    hint="give a regular JSON file, or '-' to read from stdin (a pipe)"
                    if what != "content" else "give a regular text file, or '-' for stdin",
                )
        if info.st_size > limit:
            raise _too_big(what, source, limit, f"{info.st_size:,} bytes")
        os.set_blocking(fd, True)
        with os.fdopen(fd, "rb") as handle:
            fd = -1  # closed with the handle
            data = handle.read(limit + 1)  # it may have grown since the stat
    except OSError as exc:  # /proc/self/mem: a regular file of size 0 whose read fails (EIO)
        raise FormatError(f"{what} file '{source}' cannot be read: {exc.strerror or exc}",
                          file=source, hint="give a regular file you can read, or '-' for "
                          "stdin") from None
    finally:
        if fd >= 0:
            os.close(fd)
    if len(data) > limit:
        raise _too_big(what, source, limit, f"more than {_size(limit)}")
    return data
