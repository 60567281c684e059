"""How long Sparky takes where a person waits on a model server: figures, printed, never asserted.

The suite checks what happens (a refused connection is named, a silent server is reported as timed
out after one attempt, a reply's words reach the client before the reply is stored); how fast is
measured here, on the machine at hand, against the loopback fake model of the tests:

- refused: the connection test of an AI service whose address has nothing listening
  (aiservices.llm.test_service), seconds until it says so;
- timeout: the same test against a server that accepts and never answers, with a 2 s budget
  (SPARKY_AI_TEST_SECONDS), seconds until it gives up;
- stream: a chat turn through the stream API under uvicorn (config.asgi), with a model that writes
  11 words 0.2 s apart: seconds from the first words to the end of the stream (about 2 s when the
  words are sent as they are written, 0 when they all come at the end), and the first words'
  wait.

Runs in one process against a scratch Postgres database named after DATABASE_URL's
(`<name>_timings`: created, migrated, dropped).

    .venv/bin/python bench/timings.py [--runs 3]
"""

import argparse
import os
import socket
import statistics
import sys
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
_parts = urlsplit(os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sparky"))
SCRATCH = f"{_parts.path.lstrip('/') or 'sparky'}_timings"
os.environ["DATABASE_URL"] = urlunsplit(_parts._replace(path=f"/{SCRATCH}"))
os.environ["SPARKY_ALLOW_PRIVATE_AI_URLS"] = "true"
os.environ.pop("CELERY_BROKER_URL", None)

import django  # noqa: E402

django.setup()

import httpx  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402

from aiservices.llm import test_service  # noqa: E402
from aiservices.services import ai_service_create  # noqa: E402
from config.management.commands.sparky_setup import ensure_database  # noqa: E402
from sparky.api import token_issue  # noqa: E402
from sparky.models import User  # noqa: E402
from tests.evals.scoring import drop_database  # noqa: E402
from tests.fake_llm import FakeLLM  # noqa: E402
from tests.sample_catalog import make_catalog  # noqa: E402

SSE = "text/event-stream"


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def service(user, url: str):
    return ai_service_create(
        user=user,
        service_name=f"Bench {time.monotonic_ns()}",
        service_type="custom",
        api_key="sk-bench-0001",
        model_name="fake-model",
        custom_url=url,
        is_active=True,
    )


def refused(user) -> float:
    return test_service(service(user, f"http://127.0.0.1:{closed_port()}/v1"), user).seconds


def timeout(user, fake: FakeLLM) -> float:
    settings.SPARKY_AI_TEST_SECONDS = 2
    fake.reply_delay(6)
    return test_service(service(user, fake.openai_base), user).seconds


def asgi_server():
    import uvicorn

    from config.asgi import application

    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    server = uvicorn.Server(
        uvicorn.Config(application, lifespan="on", log_level="warning", access_log=False)
    )
    thread = threading.Thread(target=server.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    while not server.started:
        time.sleep(0.05)
    return server, thread, f"http://127.0.0.1:{sock.getsockname()[1]}"


def stream(url: str, token: str, fake: FakeLLM) -> tuple[float, float]:
    """(first words after, seconds from the first words to the end of the stream)."""
    fake.reply_tool_call("log_food", {"food_name": "banana", "quantity": 1})
    fake.reply_text(
        "Logged a medium banana for your snack, a good choice before a run.", token_delay=0.2
    )
    headers = {"Authorization": f"Token {token}", "Accept": SSE}
    started = time.monotonic()
    first = last = None
    with (
        httpx.Client(base_url=url, timeout=30) as client,
        client.stream("POST", "/api/chat/", json={"message": "a banana"}, headers=headers) as r,
    ):
        for line in r.iter_lines():
            if line.startswith("event: "):
                last = time.monotonic()
                if line == "event: text" and first is None:
                    first = last
    return first - started, last - first


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="runs of each measure")
    args = parser.parse_args()

    drop_database(SCRATCH)
    ensure_database()
    call_command("migrate", verbosity=0)
    server = None
    try:
        make_catalog()
        user = User.objects.create_user(email="bench@example.com", password="bench timings")
        token = token_issue(user=user).key
        figures: dict[str, list[float]] = {"refused": [], "timeout": [], "first words": []}
        figures["words to end"] = []
        with FakeLLM() as fake:
            server, thread, url = asgi_server()
            for _ in range(args.runs):
                figures["refused"].append(refused(user))
                figures["timeout"].append(timeout(user, fake))
                first, spread = stream(url, token, fake)
                figures["first words"].append(first)
                figures["words to end"].append(spread)
            server.should_exit = True
            thread.join(timeout=10)
    finally:
        connections.close_all()
        drop_database(SCRATCH)
    print(f"bench/timings.py, {args.runs} runs each (seconds: median, min-max)")
    print("  refused       connection test, nothing listening")
    print("  timeout       connection test, server silent, budget 2 s")
    print("  first words   stream: request to the reply's first words (tool call first)")
    print("  words to end  stream: first words to the end, 11 words 0.2 s apart (about 2)")
    for name, values in figures.items():
        print(f"{name:14}{statistics.median(values):6.2f}   {min(values):.2f}-{max(values):.2f}")


if __name__ == "__main__":
    main()
