"""The server log prints what goes wrong, once: no 404 for the icon every browser asks for, no
second copy of a request's warning."""

import asyncio
import logging
import warnings

from asgiref.sync import async_to_sync
from django.conf import settings


def test_the_icon_browsers_ask_for_is_served(client):
    response = client.get("/favicon.ico")

    assert response.status_code == 301
    assert response["Location"].endswith(".svg")


def test_a_refused_request_is_logged_once(client, caplog):
    handlers = {id(h) for h in logging.getLogger().handlers}

    with caplog.at_level(logging.WARNING, logger="django.request"):
        client.get("/no-such-page/")

    assert [r.getMessage() for r in caplog.records] == ["Not Found: /no-such-page/"]
    # Django's own console handler (which prints when DEBUG is on) is not there beside the root's
    assert logging.getLogger("django").handlers == []
    assert logging.getLogger("django").propagate
    assert settings.LOGGING["loggers"]["django"]["handlers"] == []
    assert handlers  # the root handler is the one that prints


def test_a_static_file_is_streamed_to_an_asgi_server_without_a_warning(db, settings):
    settings.WHITENOISE_USE_FINDERS = True  # serve from static/ (nothing collected in tests)
    from sparky.asgi_files import FileStreamingASGIHandler

    handler = FileStreamingASGIHandler()
    scope = {
        "type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": "GET",
        "scheme": "http", "path": "/static/img/sparky.svg", "raw_path": b"/static/img/sparky.svg",
        "query_string": b"", "root_path": "", "headers": [(b"host", b"localhost")],
        "client": ("127.0.0.1", 1), "server": ("localhost", 80),
    }  # fmt: skip
    sent, asked = [], []

    async def receive():
        asked.append(1)
        if len(asked) == 1:
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.sleep(3600)  # the client stays until the response is done

    async def send(message):
        sent.append(message)

    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        async_to_sync(handler)(scope, receive, send)

    assert sent[0]["status"] == 200
    assert b"<svg" in b"".join(m.get("body", b"") for m in sent[1:])
    assert not [w for w in caught if "StreamingHttpResponse" in str(w.message)]
