"""Run the whole of Sparky for development: web server, Celery worker and beat, as child processes.

Each child runs in its own session, so a Ctrl-C in the terminal reaches only this command, which
then stops every child's whole process group (uvicorn's reloader and Celery's pool included) and
waits for them. When any child exits on its own the others are stopped too and this command exits
with that child's status: a half-running stack (web without a worker) is worse than none.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from django.conf import settings
from django.core.management import call_command
from django.core.management.base import BaseCommand, CommandError

STOP_GRACE_SECONDS = 10
NO_BROKER = (
    "sparky_dev runs a Celery worker and beat, which need a broker, and CELERY_BROKER_URL is not "
    "set.\nStart Redis and set it, e.g.\n\n"
    "    export CELERY_BROKER_URL=redis://127.0.0.1:6379/0\n\n"
    "(or put it in .env), or use `make run`, which runs tasks in-process without a broker."
)


def _broker_problem(url: str) -> str | None:
    from kombu import Connection

    try:
        with Connection(url, connect_timeout=3) as conn:
            conn.ensure_connection(max_retries=1)
    except Exception as exc:
        return f"Cannot reach the Celery broker at {url}: {exc}"
    return None


class Command(BaseCommand):
    help = "Start the web server, a Celery worker and Celery beat together (Ctrl-C stops all)."

    def add_arguments(self, parser):
        parser.add_argument("--addr", default="127.0.0.1:8000", help="host:port of the web server")
        parser.add_argument(
            "--web",
            choices=["uvicorn", "runserver"],
            default="uvicorn",
            help="uvicorn serves Django and MCP at /mcp (default); runserver serves Django only",
        )
        parser.add_argument("--no-reload", action="store_true", help="do not reload on changes")
        parser.add_argument("--no-beat", action="store_true", help="do not start Celery beat")
        parser.add_argument(
            "--setup", action="store_true", help="run sparky_setup (database, catalog) first"
        )

    def handle(self, *args, addr, web, no_reload, no_beat, setup, **options):
        broker = settings.CELERY_BROKER_URL
        if not broker:
            raise CommandError(NO_BROKER)
        if problem := _broker_problem(broker):
            raise CommandError(problem)
        if setup:
            call_command("sparky_setup")
        host, _, port = addr.rpartition(":")
        if not host or not port.isdigit():
            raise CommandError(f"--addr must be host:port, e.g. 127.0.0.1:8000 (got {addr!r}).")

        commands = {"web": self._web_command(web, host, port, reload=not no_reload)}
        celery = [sys.executable, "-m", "celery", "-A", "config"]
        commands["worker"] = [*celery, "worker", "--loglevel=INFO"]
        if not no_beat:
            schedule = Path(tempfile.gettempdir()) / f"sparky-celerybeat-{os.getuid()}"
            commands["beat"] = [*celery, "beat", "--loglevel=INFO", f"--schedule={schedule}"]
        raise SystemExit(self._supervise(commands))

    def _web_command(self, web: str, host: str, port: str, *, reload: bool) -> list[str]:
        if web == "runserver":
            cmd = [sys.executable, "manage.py", "runserver", f"{host}:{port}"]
            return cmd if reload else [*cmd, "--noreload"]
        cmd = [sys.executable, "-m", "uvicorn", "config.asgi:application", "--lifespan", "on"]
        cmd += ["--host", host, "--port", port]
        if reload:
            cmd += ["--reload", "--reload-dir", str(settings.BASE_DIR)]
        return cmd

    def _supervise(self, commands: dict[str, list[str]]) -> int:
        stopping = threading.Event()

        def on_signal(signum, frame):
            stopping.set()

        previous = {s: signal.signal(s, on_signal) for s in (signal.SIGINT, signal.SIGTERM)}
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        children: dict[str, subprocess.Popen] = {}
        width = max(map(len, commands))
        try:
            for name, cmd in commands.items():
                proc = subprocess.Popen(
                    cmd,
                    cwd=settings.BASE_DIR,
                    env=env,
                    stdout=subprocess.PIPE,
                    stderr=subprocess.STDOUT,
                    start_new_session=True,
                )
                children[name] = proc
                threading.Thread(
                    target=self._relay, args=(f"{name:<{width}} | ", proc), daemon=True
                ).start()
                self._say(f"started {name} (pid {proc.pid}): {' '.join(cmd)}")
            status = 0
            while not stopping.is_set():
                ended = next((n for n, p in children.items() if p.poll() is not None), None)
                if ended is not None:
                    status = children[ended].returncode or 1
                    self._say(f"{ended} exited with status {children[ended].returncode}; stopping")
                    break
                time.sleep(0.3)
            else:
                self._say("stopping")
            return status
        finally:
            self._stop(children)
            for sig, handler in previous.items():
                signal.signal(sig, handler)

    def _stop(self, children: dict[str, subprocess.Popen]) -> None:
        running = {n: p for n, p in children.items() if p.poll() is None}
        for proc in running.values():
            self._signal_group(proc, signal.SIGINT)
        deadline = time.monotonic() + STOP_GRACE_SECONDS
        for name, proc in running.items():
            try:
                proc.wait(timeout=max(deadline - time.monotonic(), 0.1))
            except subprocess.TimeoutExpired:
                self._say(f"{name} did not stop in {STOP_GRACE_SECONDS} s; killing it")
                self._signal_group(proc, signal.SIGKILL)
                proc.wait()
        # A child that exited may have left its own children (a reloader's server) behind.
        for proc in children.values():
            self._signal_group(proc, signal.SIGKILL)

    @staticmethod
    def _signal_group(proc: subprocess.Popen, sig: int) -> None:
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(proc.pid, sig)  # the child leads its own session, so pgid == pid

    def _relay(self, prefix: str, proc: subprocess.Popen) -> None:
        for raw in iter(proc.stdout.readline, b""):
            self.stdout.write(prefix + raw.decode(errors="replace").rstrip("\n"))
            self.stdout.flush()

    def _say(self, text: str) -> None:
        self.stdout.write(f"sparky_dev: {text}")
        self.stdout.flush()
