"""A real Celery worker on the real Redis, for tests marked `worker`.

`celery_worker` (session) starts `celery -A config worker --pool=solo` as a subprocess whose
DATABASE_URL is the pytest database and whose broker is Redis DB 5 (under pytest-xdist, 5 plus
the worker's number), waits until it answers `inspect ping`, and stops it at the end. `worker`
(per test) points this process's Celery app at the same broker with eager mode off, so `.delay()`
really goes through Redis to that worker.

Tests using it must be `@pytest.mark.django_db(transaction=True)`: the worker has its own database
connection and sees only committed rows.
"""

from __future__ import annotations

import dataclasses
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import quote

import pytest


def _broker_url() -> str:
    """Redis DB 5 for a plain run; under pytest-xdist each worker (gw0, gw1, ...) its own DB from
    5 up, so the sparky_dev tests' workers, which take the default queue, never take each
    other's tasks (those name rows in another worker's test database)."""
    if os.environ.get("SPARKY_TEST_BROKER_URL"):
        return os.environ["SPARKY_TEST_BROKER_URL"]
    worker = os.environ.get("PYTEST_XDIST_WORKER", "")
    index = int(worker[2:]) if worker[:2] == "gw" and worker[2:].isdigit() else 0
    return f"redis://127.0.0.1:6379/{5 + index % 11}"  # Redis has DBs 0-15


BROKER_URL = _broker_url()
START_TIMEOUT = 60
BASE_DIR = Path(__file__).resolve().parent.parent


def database_url(db: dict) -> str:
    """A DATABASE_URL for a child process, from a Django connection's settings_dict."""
    user = quote(db.get("USER") or "", safe="")
    password = quote(db.get("PASSWORD") or "", safe="")
    auth = f"{user}:{password}@" if password else (f"{user}@" if user else "")
    host = db.get("HOST") or "127.0.0.1"
    port = f":{db['PORT']}" if db.get("PORT") else ""
    return f"postgres://{auth}{host}{port}/{quote(db['NAME'], safe='')}"


@dataclasses.dataclass
class RunningWorker:
    process: subprocess.Popen
    name: str
    log: Path
    broker_url: str
    queue: str

    def log_text(self) -> str:
        return self.log.read_text(errors="replace")


def _celery(*args: str) -> list[str]:
    return [sys.executable, "-m", "celery", "-A", "config", *args]


def _ping(env: dict, name: str) -> bool:
    done = subprocess.run(
        _celery("inspect", "ping", "-t", "1", "-d", name),
        env=env,
        cwd=BASE_DIR,
        capture_output=True,
        timeout=30,
    )
    return done.returncode == 0


@pytest.fixture(scope="session")
def celery_worker(django_db_setup, tmp_path_factory):
    import redis
    from django.db import connection

    try:
        redis.Redis.from_url(BROKER_URL, socket_connect_timeout=2).ping()
    except redis.exceptions.ConnectionError as exc:
        pytest.fail(f"worker tests need Redis at {BROKER_URL}: {exc}")
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": database_url(connection.settings_dict),
        "CELERY_BROKER_URL": BROKER_URL,
        "CELERY_RESULT_BACKEND": BROKER_URL,
        "PYTHONUNBUFFERED": "1",
    }
    # A queue of this session's own: parallel runs (xdist, other checkouts) share Redis DB 5 but
    # never take each other's tasks, which name rows in another test database.
    queue = f"sparky-test-{os.getpid()}"
    name = f"{queue}@localhost"
    log = tmp_path_factory.mktemp("celery") / "worker.log"
    with log.open("wb") as out:
        process = subprocess.Popen(
            _celery(
                "worker",
                "--pool=solo",
                "--without-gossip",
                "--without-mingle",
                "--without-heartbeat",
                "--loglevel=INFO",
                "-Q",
                queue,
                "-n",
                name,
            ),
            env=env,
            cwd=BASE_DIR,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    running = RunningWorker(process=process, name=name, log=log, broker_url=BROKER_URL, queue=queue)
    try:
        deadline = time.monotonic() + START_TIMEOUT
        while not _ping(env, name):
            if process.poll() is not None or time.monotonic() > deadline:
                pytest.fail(f"the Celery worker did not start:\n{running.log_text()[-4000:]}")
            time.sleep(0.5)
        yield running
    finally:
        process.send_signal(signal.SIGTERM)  # warm shutdown: finish the current task
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture
def worker(celery_worker, settings):
    """This process's Celery app sends to the test worker for the duration of one test."""
    from config.celery import app

    saved = {
        key: app.conf[key]
        for key in (
            "broker_url",
            "result_backend",
            "task_always_eager",
            "task_eager_propagates",
            "task_default_queue",
        )
    }
    settings.CELERY_BROKER_URL = celery_worker.broker_url
    settings.CELERY_TASK_ALWAYS_EAGER = False

    def reset_connections():
        # Celery caches the broker pool, the producer pool and the result backend it built from
        # the configuration it saw first; forget them so the new URLs take effect.
        app._pool = None
        app.amqp._producer_pool = None
        app._backend_cache = None
        app._local.__dict__.pop("backend", None)

    app.conf.update(
        broker_url=celery_worker.broker_url,
        result_backend=celery_worker.broker_url,
        task_always_eager=False,
        task_eager_propagates=False,
        task_default_queue=celery_worker.queue,
    )
    reset_connections()
    yield celery_worker
    app.conf.update(saved)
    reset_connections()
