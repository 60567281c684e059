"""The server log prints what goes wrong, once: no 404 for the icon every browser asks for, no
second copy of a request's warning."""

import logging

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
