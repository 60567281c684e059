"""Files streamed under ASGI without Django's warning.

WhiteNoise (static files) and `FileResponse` stream a file through a synchronous iterator. Served
by uvicorn, Django would consume it whole and warn, once per process, "StreamingHttpResponse must
consume synchronous iterators in order to serve them asynchronously". This middleware, outside
WhiteNoise in MIDDLEWARE, hands such a response to the server as an asynchronous iterator that
reads the file a chunk at a time in a worker thread. Under WSGI (tests, runserver) it does nothing.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIRequest

_END = object()


def _next_chunk(iterator):
    return next(iterator, _END)


async def _read_in_thread(iterator):
    while (chunk := await sync_to_async(_next_chunk, thread_sensitive=False)(iterator)) is not _END:
        yield chunk


class AsyncFileStreamMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        response = self.get_response(request)
        if isinstance(request, ASGIRequest) and response.streaming and not response.is_async:
            response.streaming_content = _read_in_thread(iter(response.streaming_content))
        return response
