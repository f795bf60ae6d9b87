"""Websocket frames of invalid UTF-8 cannot flood the log (issue 26, item 5): each such connection is closed
with 1007, as the websocket protocol says, and the server counts them in one line every few seconds instead of
writing a 504-byte traceback for each (one client grew the log 1.0 MB in 2.2 s)."""

from __future__ import annotations

import asyncio

import websockets

from helpers.server import serve_for_module

import pytest


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    yield from serve_for_module(tmp_path_factory.mktemp("flood") / "unokart.sqlite")


def test_invalid_utf8_frames_close_with_1007_and_are_logged_as_a_count_not_tracebacks(server):
    code = server.create(seats=2)["code"]
    before = server.log.stat().st_size

    async def one() -> int | None:
        ws = await websockets.connect(server.ws_url(code))
        ws.protocol.send_text(b"\xff\xfe not UTF-8")  # a text frame the client library would not build itself
        ws.send_data()
        try:
            await asyncio.wait_for(ws.recv(), 20)
        except websockets.ConnectionClosed as closed:
            return closed.rcvd.code if closed.rcvd else None
        return None

    async def main() -> list:
        return [await one() for _ in range(60)]

    assert asyncio.run(main()) == [1007] * 60
    written = server.log.read_text()[before:]
    assert "Traceback" not in written, written[:2000]
    lines = [line for line in written.splitlines() if "UTF-8" in line]
    assert 1 <= len(lines) <= 3 and len(written) < 1000, written[:2000]
