"""`manage.py sparky_dev`: web, worker and beat as children; Ctrl-C or a child's death stops all."""

import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time

import httpx
import pytest
from django.conf import settings
from django.core.management import CommandError, call_command
from django.db import connection

from tests.worker import BROKER_URL, database_url

START_SECONDS = 60


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


class Dev:
    """sparky_dev in a subprocess, its output collected line by line."""

    def __init__(self, port: int):
        env = {
            **os.environ,
            "CELERY_BROKER_URL": BROKER_URL,
            "DATABASE_URL": database_url(connection.settings_dict),
            "PYTHONUNBUFFERED": "1",
        }
        self.proc = subprocess.Popen(
            [
                sys.executable,
                "manage.py",
                "sparky_dev",
                "--addr",
                f"127.0.0.1:{port}",
                "--no-reload",
            ],
            cwd=settings.BASE_DIR,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
        )
        self.lines: list[str] = []
        self._queue: queue.Queue = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()
        self.url = f"http://127.0.0.1:{port}"

    def _read(self):
        for line in self.proc.stdout:
            self._queue.put(line.rstrip("\n"))

    def wait_for(self, predicate, what: str) -> str:
        deadline = time.monotonic() + START_SECONDS
        while time.monotonic() < deadline:
            try:
                line = self._queue.get(timeout=0.5)
            except queue.Empty:
                if self.proc.poll() is not None:
                    break
                continue
            self.lines.append(line)
            if predicate(line):
                return line
        raise AssertionError(f"never saw {what}:\n" + "\n".join(self.lines[-60:]))

    def pids(self) -> dict[str, int]:
        out = {}
        for line in self.lines:
            if line.startswith("sparky_dev: started "):
                name, pid = line.split()[2], line.split("(pid ")[1].split(")")[0]
                out[name] = int(pid)
        return out

    def stop(self):
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


def wait_gone(pids, seconds=20):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline and any(alive(p) for p in pids):
        time.sleep(0.2)
    return [p for p in pids if alive(p)]


@pytest.fixture
def dev(django_db_setup):
    running = Dev(free_port())
    yield running
    running.stop()


def start_all(dev: Dev) -> dict[str, int]:
    dev.wait_for(lambda line: line.startswith("sparky_dev: started beat"), "beat start")
    dev.wait_for(lambda line: line.startswith("worker") and "ready." in line, "worker ready")
    deadline = time.monotonic() + START_SECONDS
    while True:
        try:
            response = httpx.post(f"{dev.url}/mcp", json={})
            break
        except httpx.TransportError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.3)
    assert response.status_code == 401  # uvicorn serves config.asgi, MCP included
    return dev.pids()


def test_without_a_broker_it_says_what_to_set(settings):
    settings.CELERY_BROKER_URL = ""

    with pytest.raises(CommandError, match="CELERY_BROKER_URL is not set"):
        call_command("sparky_dev")


def test_an_unreachable_broker_is_reported_before_anything_starts(settings):
    settings.CELERY_BROKER_URL = f"redis://127.0.0.1:{free_port()}/0"

    with pytest.raises(CommandError, match="Cannot reach the Celery broker"):
        call_command("sparky_dev")


@pytest.mark.worker
def test_ctrl_c_stops_web_worker_and_beat(dev):
    pids = start_all(dev)
    assert set(pids) == {"web", "worker", "beat"}

    dev.proc.send_signal(signal.SIGINT)

    assert dev.proc.wait(timeout=30) == 0
    assert wait_gone(pids.values()) == []


@pytest.mark.worker
def test_when_one_child_dies_the_others_are_stopped(dev):
    pids = start_all(dev)

    os.kill(pids["worker"], signal.SIGKILL)

    assert dev.proc.wait(timeout=30) != 0
    assert wait_gone([pids["web"], pids["beat"]]) == []
    dev.wait_for(lambda line: "worker exited" in line, "the reason it stopped")
