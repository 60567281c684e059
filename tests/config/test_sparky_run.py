"""`make run` (manage.py sparky_run): quiet setup, then the addresses to open once it listens."""

import os
import queue
import re
import signal
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

import httpx
import pytest
from django.conf import settings
from django.core.management import call_command
from django.db import connection

from config.management.commands.sparky_run import base_url, ready_message
from config.management.commands.sparky_setup import CREATED, LOADING
from tests.worker import database_url

README = Path(settings.BASE_DIR) / "README.md"
START_SECONDS = 60


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def run_sparky(port: int) -> tuple[subprocess.Popen, queue.Queue]:
    env = {
        **os.environ,
        "DATABASE_URL": database_url(connection.settings_dict),
        "PYTHONUNBUFFERED": "1",
    }
    env.pop("LOG_LEVEL", None)
    proc = subprocess.Popen(
        [sys.executable, "manage.py", "sparky_run", "--port", str(port), "--skip-catalog"],
        cwd=settings.BASE_DIR,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
    )
    lines: queue.Queue = queue.Queue()

    def read():
        for line in proc.stdout:
            lines.put(line.rstrip("\n"))

    threading.Thread(target=read, daemon=True).start()
    return proc, lines


def collect_until(proc, lines: queue.Queue, last: str) -> list[str]:
    seen: list[str] = []
    deadline = time.monotonic() + START_SECONDS
    while time.monotonic() < deadline:
        try:
            line = lines.get(timeout=0.5)
        except queue.Empty:
            if proc.poll() is not None:
                break
            continue
        seen.append(line)
        if line == last:
            return seen
    raise AssertionError("sparky_run never said it was ready:\n" + "\n".join(seen))


@pytest.mark.django_db(transaction=True)
def test_it_prints_only_the_addresses_once_it_listens_and_they_answer():
    port = free_port()
    proc, lines = run_sparky(port)
    try:
        output = collect_until(proc, lines, "Press Ctrl-C to stop.")
        base = f"http://127.0.0.1:{port}"
        assert output == ready_message("127.0.0.1", port).splitlines()
        assert f"  Chat      {base}/" in output
        assert f"  API docs  {base}/api/docs/" in output

        with httpx.Client(base_url=base, timeout=10) as client:
            assert client.get("/").status_code == 302  # to the owner account or log in
            assert client.get("/admin/").status_code == 302
            assert client.get("/api/", headers={"Accept": "text/html"}).status_code == 302
            assert client.post("/mcp", json={}).status_code == 401  # needs a token
        time.sleep(0.5)
        assert lines.empty(), "requests must not be logged"
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)


def test_the_readme_shows_exactly_what_make_run_prints():
    readme = README.read_text()

    assert ready_message("127.0.0.1", 8000) in readme
    assert "make run PORT=" in readme


def test_the_readme_shows_the_first_runs_lines_as_make_prints_them():
    readme = README.read_text()
    makefile = (Path(settings.BASE_DIR) / "Makefile").read_text()

    installing = re.search(r'@echo "(Installing Sparky into \$\(VENV\)[^"]*)"', makefile).group(1)
    assert installing.replace("$(VENV)", ".venv") in readme
    assert CREATED.format(name="sparky") in readme
    assert LOADING in readme


def test_a_server_on_every_interface_is_announced_at_the_loopback_address():
    assert base_url("0.0.0.0", 8000) == "http://127.0.0.1:8000"
    assert base_url("::", 8000) == "http://[::1]:8000"
    assert base_url("192.168.1.20", 9000) == "http://192.168.1.20:9000"


@pytest.mark.django_db(transaction=True)
def test_setup_says_nothing_when_there_is_nothing_to_do(capsys):
    call_command("sparky_setup", skip_catalog=True)

    assert capsys.readouterr().out == ""
