"""A real small model for the `model` tests: llama.cpp's server with Qwen2.5-Coder 1.5B
(bench/model_server.sh, built and fetched once per machine into ~/.cache/sparky-model), started
for the session on a free loopback port, and the whole public catalog the model's words are
looked up in."""

import os
import socket
import subprocess
import time
import urllib.request
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command

from tests.evals.test_diary_eval import _remove_catalog

ROOT = Path(__file__).resolve().parents[2]
# The first run on a machine builds llama.cpp (about 15 minutes on 2 cores) and fetches 1.1 GB.
START_SECONDS = float(os.environ.get("SPARKY_MODEL_START_SECONDS", 3600))


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


@pytest.fixture(scope="session")
def model_server(tmp_path_factory):
    """The base URL (`.../v1`) of a running 1.5B model server."""
    port = _free_port()
    log = tmp_path_factory.mktemp("model") / "server.log"
    env = {**os.environ, "MODEL": "1.5b", "MODEL_PORT": str(port)}
    with open(log, "w") as out:
        process = subprocess.Popen(
            ["bash", str(ROOT / "bench" / "model_server.sh"), "serve"],
            env=env,
            stdout=out,
            stderr=subprocess.STDOUT,
        )
    try:
        deadline = time.monotonic() + START_SECONDS
        while not _healthy(port):
            if process.poll() is not None:
                pytest.fail(f"the model server stopped:\n{log.read_text()[-3000:]}")
            if time.monotonic() > deadline:
                pytest.fail(f"the model server did not come up:\n{log.read_text()[-3000:]}")
            time.sleep(1)
        yield f"http://127.0.0.1:{port}/v1"
    finally:
        process.send_signal(2)
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()


@pytest.fixture(scope="module")
def real_catalog(django_db_setup, django_db_blocker):
    """The whole public catalog (USDA SR28, Compendium, wger), loaded once for the module."""
    with django_db_blocker.unblock():
        _remove_catalog()
        call_command("load_catalog", stdout=StringIO(), verbosity=0)
        yield
        _remove_catalog()
