"""The ASGI application of ``dominocore serve`` (docs/serve.md): the page,
the table API and the websocket, on Starlette.

Nothing a handler raises reaches a client as more than an error code and a
sentence: protocol refusals carry their own message, anything else is
logged here and answered ``internal``.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from pathlib import Path
from typing import Any, AsyncIterator, Dict, Optional, Union

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Scope
from starlette.websockets import WebSocket, WebSocketDisconnect

from .. import record
from .protocol import MAX_MESSAGE_BYTES, ProtocolError, error_message, parse_client_message
from .store import Store
from .tables import Client, Table, Tables

__all__ = ["create_app", "STATIC"]

log = logging.getLogger("dominocore.serve")

#: The page's files, served as they are.
STATIC = Path(__file__).with_name("static")
#: The page and its files: a browser asks again each time (a cheap 304 when
#: nothing changed), so an upgraded server's page is never served stale.
NO_CACHE = {"Cache-Control": "no-cache"}


class _StaticFiles(StaticFiles):
    """The page's files, each sent with :data:`NO_CACHE`."""

    async def get_response(self, path: str, scope: Scope) -> Response:
        response = await super().get_response(path, scope)
        response.headers.update(NO_CACHE)
        return response


def _error(status: int, code: str, message: str) -> JSONResponse:
    return JSONResponse({"error": code, "message": message}, status_code=status)


def create_app(db: Union[str, "Path"]) -> Starlette:
    """The server's application over the database at ``db`` (created if
    missing; its tables come back and their bots resume at start-up)."""
    tables: Optional[Tables] = None

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        nonlocal tables
        tables = Tables(Store(db))
        tables.load()
        tables.start()
        app.state.tables = tables
        try:
            yield
        finally:
            await tables.stop()
            tables.store.close()

    async def page(request: Request) -> Response:
        return FileResponse(STATIC / "index.html", headers=NO_CACHE)

    async def create_table(request: Request) -> Response:
        assert tables is not None
        size = request.headers.get("content-length")
        if size is not None and (not size.isdigit() or int(size) > MAX_MESSAGE_BYTES):
            return _error(413, "too_large", f"a request may have at most {MAX_MESSAGE_BYTES} bytes")
        body = b""
        async for chunk in request.stream():
            body += chunk
            if len(body) > MAX_MESSAGE_BYTES:
                return _error(413, "too_large", f"a request may have at most {MAX_MESSAGE_BYTES} bytes")
        try:
            data = json.loads(body)
        except (ValueError, UnicodeDecodeError):
            return _error(400, "bad_json", "the request must be a JSON object")
        try:
            answer = tables.create(data)
        except ProtocolError as exc:
            return _error(400, exc.code, str(exc))
        except Exception:
            log.exception("a table could not be created")
            return _error(500, "internal", "the server failed; nothing was created")
        return JSONResponse(answer, status_code=201)

    async def match_record(request: Request) -> Response:
        assert tables is not None
        found = tables.find(request.query_params.get("token", ""))
        if found is None:
            return _error(403, "bad_token", "the token grants nothing")
        table: Table = found[0]
        async with table.lock:
            if not table.match.is_over:
                return _error(409, "not_over", "the record is available once the match is over")
            names = [f"seat {s} ({kind})" for s, kind in enumerate(table.kinds)]
            text = record.dumps(table.match, seats=names, event=f"dominocore serve, table {table.id}")
            tables.forget_if_idle(table)
        headers = {"Content-Disposition": f'attachment; filename="dominocore-{table.id}.json"'}
        return Response(text, media_type="application/json", headers=headers)

    async def socket(websocket: WebSocket) -> None:
        assert tables is not None
        await websocket.accept()
        joined: Optional[Any] = None  # (table, client) once the hello is accepted
        writer: Optional["asyncio.Task[None]"] = None
        try:
            while True:
                message = await websocket.receive()
                if message["type"] == "websocket.disconnect":
                    return
                frame = message.get("text")
                if frame is None:
                    frame = message.get("bytes")
                try:
                    data = parse_client_message(frame)
                    if joined is None:
                        if data["type"] != "hello":
                            raise ProtocolError("bad_token", "send hello with your token first")
                        found = tables.find(data["token"])
                        if found is None:
                            raise ProtocolError("bad_token", "the token grants nothing")
                        table, seat = found
                        client = Client(seat)
                        writer = asyncio.get_running_loop().create_task(_write(websocket, client))
                        joined = (table, client)
                        await table.join(client)
                        continue
                    table, client = joined
                    if data["type"] == "hello":
                        raise ProtocolError("bad_message", "this connection already holds a seat")
                    if data["type"] == "move":
                        await table.play(client.seat, data["move"], data["stamp"])
                    elif data["type"] == "next":
                        await table.next_round(client.seat)
                    else:
                        client.send({"v": 1, "type": "pong"})
                except ProtocolError as exc:
                    answer = error_message(exc.code, str(exc))
                    if joined is None:
                        await websocket.send_text(json.dumps(answer))
                        if exc.code == "bad_token":
                            await websocket.close(code=4401)
                            return
                    else:
                        joined[1].send(answer)
        except WebSocketDisconnect:
            return
        except Exception:
            log.exception("a websocket failed")
            with contextlib.suppress(Exception):
                await websocket.send_text(json.dumps(error_message("internal", "the server failed")))
                await websocket.close(code=1011)
        finally:
            if joined is not None:
                await joined[0].leave(joined[1])
            if writer is not None:
                writer.cancel()

    async def health(request: Request) -> Response:
        assert tables is not None
        return JSONResponse({"tables": len(tables.tables)})  # in memory: those whose match is not over, or watched

    routes = [
        Route("/", page),
        Route("/play", page),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/record", match_record),
        Route("/api/health", health),
        WebSocketRoute("/ws", socket),
        Mount("/static", _StaticFiles(directory=str(STATIC)), name="static"),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


async def _write(websocket: WebSocket, client: Client) -> None:
    """Send ``client``'s messages in order until it is closed (then close the socket)."""
    try:
        while True:
            message: Optional[Dict[str, Any]] = await client.outbox.get()
            if message is None:
                break
            await websocket.send_text(json.dumps(message))
        await websocket.close(code=1008)  # dropped: it did not read its messages
    except Exception:  # the connection is gone; the reader's loop ends too
        pass
