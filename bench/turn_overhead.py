"""Server-side time of a chat turn against a zero-latency fake model, beside a trivial request.

Runs in one process against a scratch Postgres database (created, migrated, dropped): a logged-in
Django test client posts chat turns to the chat page's endpoint while the loopback fake LLM answers
instantly (a log_food tool call, then a text reply), interleaved with a trivial authenticated page
(GET /settings/) and offline-model turns. The difference is what Sparky itself costs per turn:
classification, prompt composition, two litellm round trips, the tool call's transaction, storing
both messages and the (in-process, no broker) progress summary.

    .venv/bin/python bench/turn_overhead.py [--turns 60]
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
SCRATCH = "sparky_bench_turn"
os.environ["DATABASE_URL"] = f"postgres://postgres@127.0.0.1:5432/{SCRATCH}"
os.environ["SPARKY_ALLOW_PRIVATE_AI_URLS"] = "true"
os.environ.pop("CELERY_BROKER_URL", None)

import django  # noqa: E402

django.setup()

import psycopg  # noqa: E402
from django.conf import settings  # noqa: E402
from django.core.management import call_command  # noqa: E402
from django.db import connections  # noqa: E402
from django.test import Client  # noqa: E402

from config.management.commands.sparky_setup import ensure_database  # noqa: E402
from tests.fake_llm import FakeLLM, Reply, ToolCall  # noqa: E402


def responder(request):
    """Instant answers: a log_food call first, a short text once the tool result is back."""
    if not request.tools:
        return Reply.message("food")  # the classifier, if it is ever asked
    if any(m.get("role") == "tool" for m in request.messages):
        return Reply.message("Logged 2 eggs for breakfast.")
    return Reply.message(
        None, [ToolCall("log_food", {"food_name": "egg", "quantity": 2, "meal_type": "breakfast"})]
    )


def percentile(samples, q):
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(round(q * (len(ordered) - 1))))]


def drop_scratch():
    connections.close_all()
    with psycopg.connect(
        host="127.0.0.1", user="postgres", dbname="postgres", autocommit=True
    ) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{SCRATCH}" WITH (FORCE)')


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--turns", type=int, default=60)
    args = parser.parse_args()
    settings.ALLOWED_HOSTS = ["testserver"]
    drop_scratch()
    ensure_database()
    call_command("migrate", verbosity=0)
    try:
        run(args.turns)
    finally:
        drop_scratch()


def run(turns: int) -> None:
    from aiservices.services import ai_service_create
    from nutrition.models import Food, FoodEntry
    from sparky.models import User

    Food.objects.create(
        name="Egg, whole, raw, fresh",
        calories=143,
        protein=12.56,
        carbs=0.72,
        fat=9.51,
        serving_size=100,
        serving_unit="g",
        source="usda_sr28",
        source_id="01123",
    )
    with FakeLLM() as fake:
        fake.respond_with(responder)
        model_user = User.objects.create_user("model@example.com", "pw-bench-123")
        ai_service_create(
            user=model_user,
            service_name="Fake",
            service_type="custom",
            api_key="x",
            model_name="fake",
            custom_url=fake.openai_base,
            is_active=True,
        )
        offline_user = User.objects.create_user("offline@example.com", "pw-bench-123")
        clients = {}
        for user in (model_user, offline_user):
            client = Client(HTTP_HX_REQUEST="true")
            client.force_login(user)
            clients[user.email] = client

        def turn(email):
            response = clients[email].post("/chat/send/", {"message": "2 eggs for breakfast"})
            assert response.status_code == 200, response.status_code

        def trivial():
            assert clients["model@example.com"].get("/settings/goals/").status_code == 200

        cases = {
            "trivial GET /settings/goals/": trivial,
            "chat turn, fake model (tools)": lambda: turn("model@example.com"),
            "chat turn, offline model": lambda: turn("offline@example.com"),
        }
        for fn in cases.values():  # warm up: imports, litellm, caches
            for _ in range(3):
                fn()
        samples = {name: [] for name in cases}
        for _ in range(turns):
            for name, fn in cases.items():  # interleaved, so machine noise hits all alike
                start = time.perf_counter()
                fn()
                samples[name].append((time.perf_counter() - start) * 1000)
        assert FoodEntry.objects.filter(user=model_user).count() == turns + 3
    base = statistics.median(samples["trivial GET /settings/goals/"])
    print(f"{turns} rounds, interleaved; times in ms")
    print(f"{'request':<32} {'p50':>8} {'p95':>8} {'x trivial':>10}")
    for name, values in samples.items():
        p50 = statistics.median(values)
        print(f"{name:<32} {p50:>8.1f} {percentile(values, 0.95):>8.1f} {p50 / base:>10.1f}")


if __name__ == "__main__":
    main()
