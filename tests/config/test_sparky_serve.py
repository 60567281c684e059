"""`make serve` (manage.py sparky_serve): production only; the browser test
(tests/browser/test_production.py) starts it and opens its pages."""

import os
import subprocess
import sys

from django.conf import settings

from config.management.commands.sparky_serve import NOT_PRODUCTION, uvicorn_command


def test_it_refuses_to_start_with_debug_on():
    done = subprocess.run(
        [sys.executable, "manage.py", "sparky_serve"],
        cwd=settings.BASE_DIR,
        env={**os.environ, "DEBUG": "true"},
        capture_output=True,
        text=True,
        timeout=120,
    )

    assert done.returncode != 0
    assert NOT_PRODUCTION in done.stderr


def test_the_server_takes_the_client_address_from_the_socket_not_from_headers():
    command = uvicorn_command(host="0.0.0.0", port=8000, workers=2)

    assert "--no-proxy-headers" in command
    assert command[command.index("--workers") + 1] == "2"
