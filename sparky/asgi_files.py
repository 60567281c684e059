"""Files streamed under ASGI without Django's warning.

WhiteNoise (static files) and `FileResponse` stream a file through a synchronous iterator. Served
by uvicorn, Django would consume it in one go and warn, once per process, "StreamingHttpResponse
must consume synchronous iterators in order to serve them asynchronously". This ASGI handler
(config.asgi) hands such a response to the server as an asynchronous iterator that reads the file
a chunk at a time in a worker thread, as Django's own static files handler does for runserver.
"""

from __future__ import annotations

from asgiref.sync import sync_to_async
from django.core.handlers.asgi import ASGIHandler

_END = object()


def _next_chunk(iterator):
    return next(iterator, _END)


async def _read_in_thread(iterator):
    while (chunk := await sync_to_async(_next_chunk, thread_sensitive=False)(iterator)) is not _END:
        yield chunk


class FileStreamingASGIHandler(ASGIHandler):
    async def get_response_async(self, request):
        response = await super().get_response_async(request)
        if response.streaming and not response.is_async:
            response.streaming_content = _read_in_thread(iter(response.streaming_content))
        return response
