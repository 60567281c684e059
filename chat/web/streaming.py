"""A chat turn as server-sent events, for the chat page and for `POST /api/chat/` with
`Accept: text/event-stream`.

    stream = TurnStream.start(lambda events: handle_turn(user, text, events=events).as_dict())
    return stream.response(request)   # raises TurnRejected first, like handle_turn

The turn runs in a thread of its own and its events go through a queue to the response, so the
reader never drives the turn: a closed tab or a dropped connection stops the reading, never the
turn, which completes and is stored once (a reload shows it; a retry with the same
Idempotency-Key gets the stored reply). The events, in order:

- `step` `{"text": "Looking up oatmeal…"}`: what the turn is doing now, in plain words;
- `text` `{"text": "Logged a bowl"}`: a piece of the reply as the model writes it, or the whole
  reply at once when no model wrote it (a draft: the reply the turn ends with is in `done`);
- `entry` `{"kind", "id", "summary", "chip", "date", ...}`: a diary row, once it is saved;
- `done`: the turn's answer, as the JSON API returns it (the page's carries the drawn reply);
- `error` `{"message"}`: the turn failed on Sparky's side (its message is saved all the same).

Under an ASGI server (`make run`) the response reads the queue asynchronously; under a WSGI
server (gunicorn's workers, the test server) it reads it in the request's thread.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import queue
import threading
from collections.abc import AsyncIterator, Callable, Iterator

from django.core.handlers.asgi import ASGIRequest
from django.db import close_old_connections, connections
from django.http import StreamingHttpResponse

from chat.turn.types import TurnRejected

logger = logging.getLogger(__name__)

MEDIA_TYPE = "text/event-stream"
# A comment line when nothing was sent for this long, so proxies keep the connection open.
KEEP_ALIVE_SECONDS = 15
FAILED = (
    "Something went wrong on Sparky's side while answering. Your message is saved, and whatever "
    "was logged is in your diary. Please try again."
)
_END = object()


def wants_stream(request) -> bool:
    """Whether the client asked for the turn as events (`Accept: text/event-stream`)."""
    return MEDIA_TYPE in (request.headers.get("Accept") or "")


def encode(event: str, data) -> bytes:
    return f"event: {event}\ndata: {json.dumps(data, ensure_ascii=False)}\n\n".encode()


class TurnStream:
    """One turn running in its own thread, its events queued for whoever reads them."""

    def __init__(self):
        self._queue: queue.SimpleQueue = queue.SimpleQueue()
        self._first = None
        # Set when an asynchronous reader waits: the turn's thread wakes it on its event loop,
        # so a waiting reader holds no thread of the loop's small executor.
        self._loop: asyncio.AbstractEventLoop | None = None
        self._arrived: asyncio.Event | None = None

    @classmethod
    def start(cls, run: Callable[[Callable[[str, dict], None]], dict]) -> TurnStream:
        """Start `run(events)` (which returns the `done` event's data) in a thread; return once
        the turn is under way. A turn refused before it starts raises its TurnRejected here."""
        stream = cls()
        thread = threading.Thread(target=stream._work, args=(run,), name="sparky-turn")
        thread.start()
        first = stream._queue.get()
        if isinstance(first, TurnRejected):
            raise first
        stream._first = first
        return stream

    def _put(self, event: str, data: dict) -> None:
        self._push((event, data))

    def _push(self, item) -> None:
        self._queue.put(item)
        if self._loop is not None:
            with contextlib.suppress(RuntimeError):  # the loop is gone: nobody reads any more
                self._loop.call_soon_threadsafe(self._arrived.set)

    def _work(self, run) -> None:
        close_old_connections()
        try:
            self._put("done", run(self._put))
        except TurnRejected as exc:
            self._push(exc)
        except Exception:
            logger.exception("streamed chat turn failed")
            self._put("error", {"message": FAILED})
        finally:
            self._push(_END)
            connections.close_all()  # this thread's own connections

    def _next(self, timeout: float):
        if self._first is not None:
            first, self._first = self._first, None
            return first
        try:
            return self._queue.get(timeout=timeout) if timeout else self._queue.get_nowait()
        except queue.Empty:
            return None

    def events(self) -> Iterator[bytes]:
        while (item := self._next(KEEP_ALIVE_SECONDS)) is not _END:
            yield _as_bytes(item)

    async def aevents(self) -> AsyncIterator[bytes]:
        self._arrived = asyncio.Event()
        self._loop = asyncio.get_running_loop()
        while (item := await self._anext()) is not _END:
            yield _as_bytes(item)

    async def _anext(self):
        self._arrived.clear()  # before looking: an item put after this sets it again
        item = self._next(timeout=0)
        if item is not None:
            return item
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._arrived.wait(), KEEP_ALIVE_SECONDS)
        return self._next(timeout=0)

    def response(self, request) -> StreamingHttpResponse:
        """The events as an HTTP response, read the way the server serving `request` reads."""
        under_asgi = isinstance(getattr(request, "_request", request), ASGIRequest)
        response = StreamingHttpResponse(
            self.aevents() if under_asgi else self.events(), content_type=MEDIA_TYPE
        )
        response["Cache-Control"] = "no-cache"
        response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
        return response


def _as_bytes(item) -> bytes:
    if item is None:  # nothing new for a while
        return b": still working\n\n"
    if isinstance(item, TurnRejected):  # refused once under way: said like any failure
        return encode("error", {"message": str(item)})
    return encode(*item)
