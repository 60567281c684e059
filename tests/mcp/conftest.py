"""MCP fixtures: a public food, DRF tokens, and Sparky's ASGI app served by uvicorn in a thread.

MCP handlers reach the database from sync_to_async threads, which have their own connections, so
every MCP test is transactional (`django_db(transaction=True)`): data must be committed to be seen.
"""

import socket
import threading
import time
from decimal import Decimal

import pytest
from rest_framework.authtoken.models import Token

from tests.factories import CustomFoodFactory, FoodFactory


@pytest.fixture
def egg(db):
    return FoodFactory(
        name="Egg, whole, raw, fresh",
        display_name="",
        calories=143,
        protein=Decimal("12.56"),
        carbs=Decimal("0.72"),
        fat=Decimal("9.51"),
        source_id="01123",
        servings=[(1, "large", 50)],
    )


@pytest.fixture
def alices_granola(alice):
    """A custom food only alice can see."""
    return CustomFoodFactory(
        name="Alice's secret maple granola",
        calories=450,
        protein=10,
        carbs=60,
        fat=18,
        serving_size=100,
        serving_unit="g",
        user=alice,
    )


@pytest.fixture
def alice_token(alice):
    return Token.objects.create(user=alice).key


@pytest.fixture
def bob_token(bob):
    return Token.objects.create(user=bob).key


@pytest.fixture(scope="session")
def mcp_url(django_db_setup):
    """Base URL of config.asgi under uvicorn (lifespan on), serving the pytest database."""
    import uvicorn

    from config.asgi import application

    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    server = uvicorn.Server(
        uvicorn.Config(application, lifespan="on", log_level="warning", access_log=False)
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("uvicorn did not start")
        time.sleep(0.05)
    yield f"http://127.0.0.1:{port}"
    server.should_exit = True
    thread.join(timeout=10)
    sock.close()
