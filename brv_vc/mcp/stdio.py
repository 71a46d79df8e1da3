"""Stdio for ``brv mcp`` served by the event loop itself: no worker thread per message.

The SDK's ``stdio_server`` reads every request line and writes every answer through
``anyio.wrap_file``: three hand-offs to a worker thread per call. Here the event loop reads
and writes the pipes directly and hands the SDK's own ``stdio_server`` those two streams.
As in the SDK, fd 0 reads the null device and fd 1 writes to stderr while serving, so a
stray ``print`` or a child process cannot corrupt the wire; both are restored afterwards.
Where stdin or stdout is not a pipe, socket or terminal (a regular file, say), the event
loop cannot watch it and :func:`serve_stdio` uses the SDK's transport unchanged.
"""

from __future__ import annotations

import asyncio
import json
import os
import stat
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from mcp.server.stdio import stdio_server

from brv_vc.mcp.refusals import LINE_LIMIT, oversized, refusal_of


class _Lines:
    r"""The request lines, as the SDK's reader iterates them; those it would drop are answered.

    The SDK reads a line it cannot validate (not JSON, a lone surrogate such as ``\ud800``,
    JSON nested 100,000 deep) and answers nothing, so the client waits forever; a line
    longer than :data:`LINE_LIMIT` ended the server. Here each is answered with a JSON-RPC
    error (the request's id when it can be read, else null) and the server reads on.
    Validating each line once more costs ~30 us, against the ~5 ms of a search answer.
    """

    def __init__(self, reader: asyncio.StreamReader, answers: _Answers) -> None:
        self._reader = reader
        self._answers = answers

    def __aiter__(self) -> _Lines:
        return self

    async def __anext__(self) -> str:
        while True:
            try:
                line = await self._reader.readline()
            except ValueError:  # longer than LINE_LIMIT: its start is gone, drop the rest
                await self._skip_rest()
                await self._answers.refuse(None, *oversized())
                continue
            if not line:
                raise StopAsyncIteration
            text = line.decode("utf-8", errors="replace")
            if not text.strip():
                continue
            refusal = refusal_of(text)
            if refusal is None:
                return text
            await self._answers.refuse(*refusal)

    async def _skip_rest(self) -> None:
        """Reads on to the end of an oversized line (its tail can be oversized too)."""
        while True:
            try:
                await self._reader.readline()
                return
            except ValueError:
                continue


class _Answers:
    """The answer stream, as the SDK's writer uses it."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer = writer

    async def write(self, text: str) -> None:
        self._writer.write(text.encode("utf-8"))

    async def flush(self) -> None:
        await self._writer.drain()

    async def refuse(self, request_id: Any, code: int, message: str) -> None:
        """Writes one JSON-RPC error line (whole, so it never splits an SDK answer)."""
        await self.write(json.dumps({"jsonrpc": "2.0", "id": request_id,
                                     "error": {"code": code, "message": message}}) + "\n")
        await self.flush()


def _watchable(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISSOCK(mode) or stat.S_ISCHR(mode)


@asynccontextmanager
async def _loop_stdio() -> AsyncIterator[Any]:
    saved_in, saved_out = os.dup(0), os.dup(1)
    wire_in, wire_out = os.dup(0), os.dup(1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.dup2(2, 1)
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=LINE_LIMIT)
    transports: list[asyncio.BaseTransport] = []
    try:
        read_side, _ = await loop.connect_read_pipe(
            lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(wire_in, "rb", buffering=0))
        transports.append(read_side)
        write_side, protocol = await loop.connect_write_pipe(
            asyncio.streams.FlowControlMixin, os.fdopen(wire_out, "wb", buffering=0))
        transports.append(write_side)
        writer = asyncio.StreamWriter(write_side, protocol, None, loop)
        answers = _Answers(writer)
        async with stdio_server(_Lines(reader, answers), answers) as streams:  # type: ignore[arg-type]
            yield streams
    finally:
        for transport in transports:
            transport.close()
        os.set_blocking(saved_out, True)  # the write pipe was made non-blocking
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        os.close(saved_in)
        os.close(saved_out)


def serve_stdio(server: Any) -> None:
    """Runs ``server`` (an SDK ``MCPServer``) on stdin and stdout until the client closes."""
    if not (_watchable(0) and _watchable(1)):
        server.run("stdio")
        return
    lowlevel = server._lowlevel_server

    async def run() -> None:
        async with _loop_stdio() as (read_stream, write_stream):
            await lowlevel.run(read_stream, write_stream, lowlevel.create_initialization_options())

    asyncio.run(run())
