"""Bodies larger than the limit are refused before they are parsed: at once on a Content-Length
over the limit, and while reading a streamed (chunked) body as soon as it passes the limit."""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

DEFAULT_MAX_BODY = 1_000_000  # bytes; a batch of turns, far below what would hurt the server


class TooLarge(HTTPException):
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the body is larger than {limit} bytes")


class BodyLimit:
    """Pure ASGI middleware (it never buffers the body itself)."""

    def __init__(self, app: ASGIApp, max_bytes: int = DEFAULT_MAX_BODY) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length" and (not value.isdigit() or int(value) > self.max_bytes):
                await _refuse(send, self.max_bytes)
                return
        seen = 0
        started = False

        async def counting_receive() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    # FastAPI re-raises an HTTPException met while reading the body, so this
                    # reaches the error handlers as a 413 before anything is parsed.
                    raise TooLarge(self.max_bytes)
            return message

        async def tracking_send(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
            await send(message)

        try:
            await self.app(scope, counting_receive, tracking_send)
        except TooLarge:
            if not started:  # read outside FastAPI's body parsing: answer here
                await _refuse(send, self.max_bytes)


async def _refuse(send: Send, limit: int) -> None:
    body = b'{"error":"too_large","message":"the body is larger than %d bytes"}' % limit
    await send(
        {
            "type": "http.response.start",
            "status": 413,
            "headers": [
                (b"content-type", b"application/json"),
                (b"content-length", str(len(body)).encode()),
                (b"connection", b"close"),
            ],
        }
    )
    await send({"type": "http.response.body", "body": body})
