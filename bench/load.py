"""N concurrent users against a running Sparky (gunicorn + Celery worker + Postgres) on loopback.

    .venv/bin/python bench/load.py [--users 50] [--duration 60] [--workers 2] [--threads 8]
        [--server gunicorn|uvicorn|serve] [--pool N] [--think SECONDS] [--retry-fraction 0.2]
        [--keep]

Creates its own scratch database (sparky_bench_load, dropped at the end unless --keep) and uses
Redis DB 7 (flushed before and after) as the Celery broker and the shared cache (throttles and the
provider circuit, as a multi-process deployment needs). It starts, as child processes:

- gunicorn (gthread: `--workers` processes x `--threads` threads, DEBUG off, persistent database
  connections), so at most workers x threads requests hold a Postgres connection at once; or,
  with `--server uvicorn`, the ASGI app as the README serves it (a thread per request; `--pool N`
  bounds its connections with DB_POOL_MAX_SIZE); or, with `--server serve`, the production command
  itself (`make serve`: manage.py sparky_serve, DEBUG off, static files collected, uvicorn workers
  with a pool of 8 connections each unless `--pool`);
- a Celery worker (prefork, `--celery-concurrency` children) that writes the progress summaries.

The fake LLM (tests/fake_llm.py) runs in this process and answers instantly: a log_food call for
"N eggs", then a text once the tool result is back. Every user has an API token and an AI service
pointing at it. Each user loops (no think time unless `--think`) over a mix of: a chat turn
(POST /api/chat/ with a unique Idempotency-Key; a fraction is sent twice, half of those at the
same moment, half after the first answer), water adds (POST /api/water/, sometimes two or three
at once for the same day), and reads (GET /api/summary/, GET /api/food-entries/?date=today).

It prints throughput and p50/p95/p99 latency per kind, errors by status, where the CPU went (web,
worker, this process, Postgres, other processes on the machine), the peak number of Postgres
connections and the worker's backlog, then checks the database: one user message and one reply
per idempotency key, each accepted key exactly its one food entry with its quantity and no entry
that no turn reported, every retry answered with the first answer, water totals equal to the
successful adds (and the totals the adds returned exactly 1..n), one progress summary per logged
reply, written by the worker. Any failed check or any error makes the exit status non-zero.

The chat throttle (SPARKY_CHAT_RATE, 30/min per user by default) is raised for the run: users here
chat far faster than people do, and the bench measures capacity, not the abuse guard.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import dataclasses
import datetime as dt
import fcntl
import os
import random
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
SCRATCH = "sparky_bench_load"
PG = "postgres://postgres@127.0.0.1:5432"
REDIS_URL = "redis://127.0.0.1:6379/7"


def server_environment(args) -> dict[str, str]:
    """The environment of the server, the worker and this process (same keys, same database)."""
    from cryptography.fernet import Fernet

    return {
        "DJANGO_SETTINGS_MODULE": "config.settings",
        "DATABASE_URL": f"{PG}/{SCRATCH}",
        "DEBUG": "false",
        "SECRET_KEY": "bench-load-" + uuid.uuid4().hex * 2,
        "SPARKY_ENCRYPTION_KEYS": Fernet.generate_key().decode(),
        "SECURE_SSL_REDIRECT": "false",  # plain HTTP on loopback
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "SPARKY_ALLOW_PRIVATE_AI_URLS": "true",  # the fake LLM lives on loopback
        "DB_CONN_MAX_AGE": str(
            args.conn_max_age
            if args.conn_max_age is not None
            else (60 if args.server == "gunicorn" else 0)
        ),
        "DB_POOL_MAX_SIZE": str(args.pool),
        "CACHE_URL": REDIS_URL,
        "CELERY_BROKER_URL": REDIS_URL,
        "CELERY_RESULT_BACKEND": "",
        "SPARKY_CHAT_RATE": args.chat_rate,
        "LOG_LEVEL": "WARNING",
        "PYTHONUNBUFFERED": "1",
    }


ENV: dict[str, str] = {}
LOAD_BEFORE: list[float] = []


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--users", type=int, default=50)
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of measured load")
    parser.add_argument(
        "--server",
        choices=("gunicorn", "uvicorn", "serve"),
        default="gunicorn",
        help="serve: the production command, manage.py sparky_serve (make serve)",
    )
    # One process per core; threads cover the waits on Postgres and the model. More threads add
    # GIL contention and tail latency here (3 x 8: p99 4.4 s against 2.4 s at the same req/s).
    parser.add_argument("--workers", type=int, default=2, help="web server processes")
    parser.add_argument("--threads", type=int, default=8, help="threads per gunicorn worker")
    parser.add_argument(
        "--conn-max-age",
        type=int,
        default=None,
        help="DB_CONN_MAX_AGE (default 60 with gunicorn; 0 with uvicorn, whose threads are new "
        "for every request)",
    )
    parser.add_argument(
        "--pool", type=int, default=0, help="DB_POOL_MAX_SIZE: connections per web process"
    )
    parser.add_argument("--think", type=float, default=0.0, help="mean pause between requests")
    parser.add_argument("--celery-concurrency", type=int, default=2)
    parser.add_argument("--retry-fraction", type=float, default=0.2, help="chat turns sent twice")
    parser.add_argument("--chat-rate", default="100000/min", help="SPARKY_CHAT_RATE for the run")
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args()
    if args.server == "serve" and not args.pool:
        args.pool = 8  # sparky_serve's own default (DB_POOL_MAX_SIZE)

    # One run at a time: a second one would drop the first one's database under it.
    lock = open(Path(tempfile.gettempdir()) / f"{SCRATCH}.lock", "w")  # noqa: SIM115
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise SystemExit(f"another bench/load.py is running (it holds {lock.name})") from None
    LOAD_BEFORE.extend(os.getloadavg())  # what else the machine was doing, for the record
    ENV.update(server_environment(args))
    os.environ.update(ENV)
    import django

    django.setup()

    drop_scratch()
    flush_redis()
    from django.core.management import call_command

    from config.management.commands.sparky_setup import ensure_database

    ensure_database()
    call_command("migrate", verbosity=0)
    try:
        return Bench(args).run()
    finally:
        if not args.keep:
            drop_scratch()
        flush_redis()


def drop_scratch() -> None:
    import psycopg
    from django.db import connections

    connections.close_all()
    with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
        conn.execute(f'DROP DATABASE IF EXISTS "{SCRATCH}" WITH (FORCE)')


def flush_redis() -> None:
    import redis

    redis.Redis.from_url(REDIS_URL).flushdb()


# --- the fake model ----------------------------------------------------------------------------

EGGS = re.compile(r"\b(\d+) eggs\b")


def responder(request):
    """Instant answers: log_food for the N eggs of the message, then a short text."""
    from tests.fake_llm import Reply, ToolCall

    if not request.tools:
        return Reply.message("food")  # the classifier, if it is ever asked
    if any(m.get("role") == "tool" for m in request.messages):
        return Reply.message("Logged your eggs for breakfast.")
    found = EGGS.search(request.last_user_text())
    quantity = int(found.group(1)) if found else 1
    return Reply.message(
        None,
        [
            ToolCall(
                "log_food", {"food_name": "egg", "quantity": quantity, "meal_type": "breakfast"}
            )
        ],
    )


# --- what the clients saw ----------------------------------------------------------------------


@dataclasses.dataclass
class Sample:
    kind: str
    status: int  # 0: no HTTP answer (connection error, timeout)
    ms: float
    measured: bool  # False during the warm-up round
    problem: str = ""


@dataclasses.dataclass
class Turn:
    user: int
    key: str
    eggs: int
    retry: str  # "" | "sequential" | "concurrent"
    answers: list[dict] = dataclasses.field(default_factory=list)  # JSON of each 200
    failures: int = 0


@dataclasses.dataclass
class LoadUser:
    index: int
    id: str
    token: str
    today: dt.date
    water_sent: int = 0
    water_ok: collections.Counter = dataclasses.field(default_factory=collections.Counter)
    water_totals: dict = dataclasses.field(default_factory=lambda: collections.defaultdict(list))


class Bench:
    def __init__(self, args):
        self.args = args
        self.rng = random.Random(args.seed)
        self.samples: list[Sample] = []
        self.turns: dict[str, Turn] = {}
        self.users: list[LoadUser] = []
        self.measuring = False
        self.peak_connections = 0
        self.peak_cluster = 0
        self.connection_limit = 0
        self.logs = Path(tempfile.mkdtemp(prefix="sparky-load-"))
        self.processes: list[subprocess.Popen] = []

    # setup ------------------------------------------------------------------------------
    def run(self) -> int:
        from tests.fake_llm import FakeLLM

        with FakeLLM() as fake:
            fake.respond_with(responder)
            self.create_users(fake)
            try:
                port = self.start_services()
                return self.drive(port, fake)
            finally:
                self.stop_services()

    def create_users(self, fake) -> None:
        from django.db import connections
        from rest_framework.authtoken.models import Token

        from aiservices.services import ai_service_create
        from nutrition.models import Food
        from sparky.dates import today_for
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
        for i in range(self.args.users):
            # No password (nothing to hash): the users sign in with their API token.
            user = User.objects.create_user(f"load{i:03d}@example.com", None)
            ai_service_create(
                user=user,
                service_name="Fake",
                service_type="custom",
                api_key="x",
                model_name="fake",
                custom_url=fake.openai_base,
                is_active=True,
            )
            token = Token.objects.create(user=user)
            self.users.append(LoadUser(i, str(user.pk), token.key, today_for(user)))
        connections.close_all()  # this process holds no connection while the load runs

    def start_services(self) -> int:
        env = {**os.environ, **ENV}
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            port = probe.getsockname()[1]
        self.web_log = self.logs / f"{self.args.server}.log"
        self.worker_log = self.logs / "celery.log"
        with self.web_log.open("wb") as out:
            self.processes.append(
                subprocess.Popen(
                    self.web_command(port), env=env, cwd=ROOT, stdout=out, stderr=subprocess.STDOUT
                )
            )
        with self.worker_log.open("wb") as out:
            self.processes.append(
                subprocess.Popen(
                    [
                        sys.executable,
                        "-m",
                        "celery",
                        "-A",
                        "config",  # the Celery app lives in config/celery.py
                        "worker",
                        "--pool=prefork",
                        f"--concurrency={self.args.celery_concurrency}",
                        "--without-gossip",
                        "--without-mingle",
                        "--without-heartbeat",
                        "--loglevel=WARNING",
                        "-n",
                        f"bench-load-{os.getpid()}@localhost",
                    ],
                    env=env,
                    cwd=ROOT,
                    stdout=out,
                    stderr=subprocess.STDOUT,
                )
            )
        deadline = time.monotonic() + 90
        while True:
            if self.web_ready(port) and self.worker_ready(env):
                break
            for process in self.processes:
                if process.poll() is not None:
                    raise SystemExit(f"a service exited early; see {self.logs}")
            if time.monotonic() > deadline:
                raise SystemExit(f"services not ready after 90 s; see {self.logs}")
            time.sleep(0.5)
        return port

    def web_command(self, port: int) -> list[str]:
        bin_dir = Path(sys.executable).parent
        if self.args.server == "serve":
            # The production command as the README gives it (`make serve`): setup, static files,
            # uvicorn workers with a connection pool each.
            return [
                sys.executable,
                "manage.py",
                "sparky_serve",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--workers",
                str(self.args.workers),
                "--skip-catalog",
            ]
        if self.args.server == "uvicorn":
            # As the README serves it: ASGI, Django's sync views each in a thread of their own.
            return [
                str(bin_dir / "uvicorn"),
                "config.asgi:application",
                "--lifespan",
                "on",
                "--host",
                "127.0.0.1",
                "--port",
                str(port),
                "--workers",
                str(self.args.workers),
                "--no-access-log",
            ]
        conf = self.logs / "gunicorn_conf.py"
        # litellm takes 4-5 s to import; each worker pays it before its first request, not during.
        conf.write_text(
            "def post_worker_init(worker):\n"
            "    import litellm  # noqa: F401\n"
            "    worker.log.info('sparky-load warm %s', worker.pid)\n"
        )
        return [
            str(bin_dir / "gunicorn"),
            "config.wsgi:application",
            "--config",
            str(conf),
            "--bind",
            f"127.0.0.1:{port}",
            "--worker-class",
            "gthread",
            "--workers",
            str(self.args.workers),
            "--threads",
            str(self.args.threads),
            "--timeout",
            "120",
            "--keep-alive",
            "75",
            "--backlog",
            "2048",
            "--log-level",
            "info",
            "--no-control-socket",  # its default path is shared by every gunicorn on the machine
        ]

    def web_ready(self, port: int) -> bool:
        if self.args.server == "gunicorn":
            warm = self.web_log.read_text(errors="replace").count("sparky-load warm")
            if warm < self.args.workers:
                return False
        import httpx

        try:
            response = httpx.get(
                f"http://127.0.0.1:{port}/api/summary/",
                headers={"Authorization": f"Token {self.users[0].token}"},
                timeout=5,
            )
        except httpx.HTTPError:
            return False
        return response.status_code == 200

    def worker_ready(self, env) -> bool:
        done = subprocess.run(
            [sys.executable, "-m", "celery", "-A", "config", "inspect", "ping", "-t", "1"],
            env=env,
            cwd=ROOT,
            capture_output=True,
            timeout=30,
        )
        return done.returncode == 0

    def stop_services(self) -> None:
        for process in self.processes:
            if process.poll() is None:
                process.send_signal(signal.SIGTERM)  # graceful: finish what is in hand
        for process in self.processes:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()

    # load -------------------------------------------------------------------------------
    def drive(self, port: int, fake) -> int:
        stop = threading.Event()
        monitor = threading.Thread(target=self.watch_connections, args=(stop,), daemon=True)
        monitor.start()
        try:
            started, elapsed = asyncio.run(self.load(f"http://127.0.0.1:{port}"))
        finally:
            stop.set()
            monitor.join()
        import redis

        backlog = redis.Redis.from_url(REDIS_URL).llen("celery")
        self.report(elapsed)
        print(f"progress summaries still queued for the worker when the load stopped: {backlog}")
        drained = self.wait_for_summaries()
        failures = self.check(drained)
        problems = self.server_problems()
        print(f"\nlogs: {self.logs}")
        return 1 if failures or problems or self.errors() else 0

    def watch_connections(self, stop: threading.Event) -> None:
        import psycopg

        with psycopg.connect(f"{PG}/postgres", autocommit=True) as conn:
            self.connection_limit = int(conn.execute("SHOW max_connections").fetchone()[0])
            while not stop.wait(0.25):
                mine, everyone = conn.execute(
                    "SELECT count(*) FILTER (WHERE datname = %s), count(*) FILTER "
                    "(WHERE backend_type = 'client backend') FROM pg_stat_activity",
                    [SCRATCH],
                ).fetchone()
                self.peak_connections = max(self.peak_connections, mine)
                self.peak_cluster = max(self.peak_cluster, everyone)

    async def load(self, base: str) -> tuple[float, float]:
        import httpx

        clients = [
            httpx.AsyncClient(
                base_url=base,
                headers={"Authorization": f"Token {u.token}"},
                timeout=60,
                limits=httpx.Limits(max_connections=4, max_keepalive_connections=4),
            )
            for u in self.users
        ]
        try:
            # Warm-up: one of everything per user (connections, caches), not in the figures.
            await asyncio.gather(
                *(self.warm_up(c, u) for c, u in zip(clients, self.users, strict=True))
            )
            self.measuring = True
            print(f"measuring for {self.args.duration:g} s", file=sys.stderr, flush=True)
            self.cpu_before = cpu_snapshot()
            started = time.monotonic()
            deadline = started + self.args.duration
            await asyncio.gather(
                *(self.user_loop(c, u, deadline) for c, u in zip(clients, self.users, strict=True))
            )
            elapsed = time.monotonic() - started
            after = cpu_snapshot()
            self.cpu_used = {k: after[k] - self.cpu_before.get(k, 0) for k in after}
            return started, elapsed
        finally:
            self.measuring = False
            await asyncio.gather(*(c.aclose() for c in clients))

    async def warm_up(self, client, user: LoadUser) -> None:
        await self.chat(client, user, retry="")
        await self.water(client, user, burst=1)
        await self.read(client, "summary", "/api/summary/")

    async def user_loop(self, client, user: LoadUser, deadline: float) -> None:
        rng = random.Random(self.args.seed * 1000 + user.index)
        while time.monotonic() < deadline:
            pick = rng.random()
            if pick < 0.35:
                retry = ""
                if rng.random() < self.args.retry_fraction:
                    retry = rng.choice(("sequential", "concurrent"))
                await self.chat(client, user, retry=retry, rng=rng)
            elif pick < 0.65:
                await self.water(client, user, burst=1 if rng.random() < 0.7 else rng.randint(2, 3))
            elif pick < 0.9:
                await self.read(client, "summary", "/api/summary/")
            else:
                await self.read(client, "diary", f"/api/food-entries/?date={user.today}")
            if self.args.think > 0:
                await asyncio.sleep(rng.expovariate(1 / self.args.think))

    async def request(self, client, kind: str, method: str, url: str, **kw):
        start = time.perf_counter()
        measured = self.measuring
        try:
            response = await client.request(method, url, **kw)
        except Exception as exc:  # a connection error or timeout: no HTTP status
            self.samples.append(
                Sample(kind, 0, (time.perf_counter() - start) * 1000, measured, repr(exc))
            )
            return None
        ms = (time.perf_counter() - start) * 1000
        problem = "" if response.status_code == 200 else response.text[:300]
        self.samples.append(Sample(kind, response.status_code, ms, measured, problem))
        return response

    async def chat(self, client, user: LoadUser, *, retry: str, rng=None) -> None:
        eggs = (rng or self.rng).randint(1, 4)
        key = f"load-{user.index}-{uuid.uuid4().hex}"
        turn = Turn(user.index, key, eggs, retry)
        self.turns[key] = turn

        async def send(kind):
            response = await self.request(
                client,
                kind,
                "POST",
                "/api/chat/",
                json={"message": f"{eggs} eggs for breakfast"},
                headers={"Idempotency-Key": key},
            )
            if response is not None and response.status_code == 200:
                turn.answers.append(response.json())
            else:
                turn.failures += 1

        if retry == "concurrent":
            await asyncio.gather(send("chat"), send("chat retry"))
        else:
            await send("chat")
            if retry == "sequential":
                await send("chat retry")

    async def water(self, client, user: LoadUser, *, burst: int) -> None:
        # At most 90 adds a day (the service refuses a day over 100): fill today, then earlier days.
        day = user.today - dt.timedelta(days=user.water_sent // 90)
        user.water_sent += burst

        async def add():
            response = await self.request(
                client, "water", "POST", "/api/water/", json={"glasses": 1, "date": str(day)}
            )
            if response is not None and response.status_code == 200:
                user.water_ok[day] += 1
                user.water_totals[day].append(response.json()["glasses"])

        await asyncio.gather(*(add() for _ in range(burst)))

    async def read(self, client, kind: str, url: str) -> None:
        await self.request(client, kind, "GET", url)

    # figures ----------------------------------------------------------------------------
    def errors(self) -> list[Sample]:
        return [s for s in self.samples if s.status != 200]

    def report(self, elapsed: float) -> None:
        measured = [s for s in self.samples if s.measured]
        if self.args.server == "gunicorn":
            web = f"gunicorn gthread {self.args.workers} workers x {self.args.threads} threads"
        elif self.args.server == "serve":
            web = f"make serve (sparky_serve: uvicorn {self.args.workers} workers)"
        else:
            web = f"uvicorn {self.args.workers} workers (a thread per request)"
        think = f"{self.args.think:g} s mean think time" if self.args.think else "no think time"
        print(
            f"{self.args.users} users, {think}, {elapsed:.1f} s measured (after a warm-up "
            f"round); {web}, "
            + (
                f"a pool of {self.args.pool} connections per process; "
                if self.args.pool
                else f"DB_CONN_MAX_AGE {ENV['DB_CONN_MAX_AGE']}; "
            )
            + f"Celery prefork x {self.args.celery_concurrency}; {os.cpu_count()} CPU cores"
        )
        print(
            f"{'kind':<12} {'requests':>9} {'req/s':>8} {'p50 ms':>8} {'p95 ms':>8} {'p99 ms':>8}"
        )
        kinds = ["chat", "chat retry", "water", "summary", "diary"]
        for kind in [*kinds, "all"]:
            rows = [s for s in measured if kind == "all" or s.kind == kind]
            if not rows:
                continue
            times = sorted(s.ms for s in rows)
            print(
                f"{kind:<12} {len(rows):>9} {len(rows) / elapsed:>8.1f} {pct(times, 50):>8.1f} "
                f"{pct(times, 95):>8.1f} {pct(times, 99):>8.1f}"
            )
        logged = sum(1 for t in self.turns.values() if t.answers)
        print(f"chat turns with a distinct key: {len(self.turns)} ({logged} answered)")
        by_status = collections.Counter(s.status for s in self.samples)
        print("responses by status (warm-up included): " + format_counts(by_status))
        errors = self.errors()
        print(f"errors: {len(errors)}")
        for sample in errors[:10]:
            print(f"  {sample.kind} {sample.status}: {sample.problem}")
        used = collections.Counter(self.cpu_used)
        ours = ("web", "worker", "bench (clients, fake LLM)")
        rest = used["machine"] - sum(used[k] for k in ours)
        shares = ", ".join(f"{k} {used[k] / elapsed * 100:.0f}%" for k in ours)
        shares += f", Postgres + Redis + everything else on the machine {rest / elapsed * 100:.0f}%"
        idle = max(0.0, os.cpu_count() * elapsed - used["machine"])
        shares += f"; idle {idle / elapsed * 100:.0f}%"
        print(f"CPU while measured (% of one core, {os.cpu_count()} cores): {shares}")
        print("load average before the run: " + " ".join(f"{v:.2f}" for v in LOAD_BEFORE))
        print(
            f"peak Postgres connections to {SCRATCH}: {self.peak_connections} "
            f"(all databases {self.peak_cluster}, max_connections {self.connection_limit}; "
            + (
                f"web at most {self.args.workers * self.args.threads})"
                if self.args.server == "gunicorn"
                else f"web at most {self.args.workers * self.args.pool})"
                if self.args.pool
                else "web: one per request in flight)"
            )
        )

    # checks -----------------------------------------------------------------------------
    def wait_for_summaries(self, timeout: float = 120) -> float:
        """Seconds the worker needed after the load to write the last summary (-1: never)."""
        from chat.models import ChatMessage

        start = time.monotonic()
        while time.monotonic() - start < timeout:
            # In Python: a JSON key lookup in exclude() also drops the rows without the key.
            metas = list(
                ChatMessage.objects.filter(message_type="assistant").values_list(
                    "metadata", flat=True
                )
            )
            expected = sum(1 for m in metas if ((m or {}).get("response") or {}).get("entries"))
            done = sum(1 for m in metas if (m or {}).get("kind") == "progress_summary")
            if done >= expected:
                return time.monotonic() - start
            time.sleep(0.5)
        return -1

    def check(self, drained: float) -> int:
        from django.db.models import Count

        from chat.models import ChatMessage
        from nutrition.models import FoodEntry, WaterIntake

        results: list[tuple[str, bool, str]] = []

        def record(name: str, ok: bool, detail: str) -> None:
            results.append((name, ok, detail))

        users = {u.id: u for u in self.users}
        index_of = {u.id: u.index for u in self.users}
        messages = list(
            ChatMessage.objects.all().values(
                "id", "user_id", "message_type", "idempotency_key", "metadata"
            )
        )
        user_messages = [m for m in messages if m["message_type"] == "user"]
        replies = [
            m
            for m in messages
            if m["message_type"] == "assistant"
            and (m["metadata"] or {}).get("kind") != "progress_summary"
        ]
        summaries = [m for m in messages if (m["metadata"] or {}).get("kind") == "progress_summary"]
        entries = {str(e["id"]): e for e in FoodEntry.objects.values("id", "user_id", "quantity")}

        # one user message per key, one reply per user message
        per_key = collections.Counter(
            (index_of[str(m["user_id"])], m["idempotency_key"]) for m in user_messages
        )
        dup_keys = [k for k, n in per_key.items() if n > 1]
        no_key = sum(1 for m in user_messages if not m["idempotency_key"])
        answered = {k for k, t in self.turns.items() if t.answers}
        stored_keys = {k for (_, k) in per_key}
        missing = answered - stored_keys
        unknown = stored_keys - set(self.turns)
        record(
            "one user message per idempotency key",
            not dup_keys and not no_key and not missing and not unknown,
            f"{len(user_messages)} user messages for {len(answered)} answered keys; "
            f"{len(dup_keys)} keys stored twice, {len(missing)} answered keys missing, "
            f"{len(unknown)} unknown keys, {no_key} without a key",
        )
        reply_of = collections.defaultdict(list)
        for reply in replies:
            reply_of[(reply["metadata"] or {}).get("reply_to")].append(reply)
        twice = [k for k, v in reply_of.items() if len(v) > 1]
        unanswered = [m for m in user_messages if str(m["id"]) not in reply_of]
        record(
            "one reply per user message",
            not twice and not unanswered and len(replies) == len(user_messages),
            f"{len(replies)} replies; {len(twice)} messages answered twice, "
            f"{len(unanswered)} unanswered",
        )

        # every answered key: its one entry, with its quantity; no entry nobody reported
        message_by_key = {m["idempotency_key"]: m for m in user_messages}
        reported: set[str] = set()
        bad_turns: list[str] = []
        retry_mismatch: list[str] = []
        for key in answered:
            turn = self.turns[key]
            first = turn.answers[0]
            ids = [e["id"] for e in first.get("entries") or [] if e.get("kind") == "food_entry"]
            reported.update(ids)
            problems = []
            if first.get("action") != "logged":
                problems.append(f"action {first.get('action')}: {first.get('message', '')[:80]}")
            if len(ids) != 1:
                problems.append(f"{len(ids)} entries reported")
            for entry_id in ids:
                entry = entries.get(entry_id)
                if entry is None:
                    problems.append(f"entry {entry_id} not in the database")
                elif str(entry["user_id"]) != self.users[turn.user].id:
                    problems.append("entry belongs to another user")
                elif entry["quantity"] != turn.eggs:
                    problems.append(f"quantity {entry['quantity']} for {turn.eggs} eggs")
            stored = message_by_key.get(key)
            if stored is not None:
                stored_replies = reply_of.get(str(stored["id"])) or []
                stored_ids = [
                    e["id"]
                    for r in stored_replies
                    for e in ((r["metadata"] or {}).get("response") or {}).get("entries") or []
                ]
                if sorted(stored_ids) != sorted(ids):
                    problems.append("stored reply's entries differ from the answer")
            if problems:
                bad_turns.append(f"{key}: {'; '.join(problems)}")
            for other in turn.answers[1:]:
                same = other.get("message_id") == first.get("message_id") and [
                    e["id"] for e in other.get("entries") or []
                ] == [e["id"] for e in first.get("entries") or []]
                if not same:
                    retry_mismatch.append(
                        f"{key} ({turn.retry}): {other.get('action')} "
                        f"{other.get('message', '')[:80]!r}"
                    )
        extra = set(entries) - reported
        record(
            "every accepted turn has exactly its entry",
            not bad_turns and not extra and len(entries) == len(answered),
            f"{len(entries)} food entries for {len(answered)} answered keys; "
            f"{len(bad_turns)} turns wrong, {len(extra)} entries no answer reported"
            + "".join(f"\n      {b}" for b in bad_turns[:5]),
        )
        retried = [t for t in self.turns.values() if t.retry and t.answers]
        record(
            "every retry got the first answer (no second turn)",
            not retry_mismatch,
            f"{len(retried)} retried keys "
            f"({sum(1 for t in retried if t.retry == 'concurrent')} sent concurrently); "
            f"{len(retry_mismatch)} answered differently"
            + "".join(f"\n      {r}" for r in retry_mismatch[:5]),
        )

        # water
        stored_water = {
            (str(w["user_id"]), w["entry_date"]): w["glasses_consumed"]
            for w in WaterIntake.objects.values("user_id", "entry_date", "glasses_consumed")
        }
        wrong_water = []
        adds = 0
        for user in users.values():
            for day, n in user.water_ok.items():
                adds += n
                got = stored_water.pop((user.id, day), 0)
                if got != n or sorted(user.water_totals[day]) != list(range(1, n + 1)):
                    wrong_water.append(f"user {user.index} {day}: {n} adds, stored {got}")
        wrong_water += [f"unexpected row {k}: {v}" for k, v in stored_water.items()]
        record(
            "water totals exact",
            not wrong_water,
            f"{adds} successful adds over {sum(len(u.water_ok) for u in users.values())} "
            f"user-days; {len(wrong_water)} wrong"
            + "".join(f"\n      {w}" for w in wrong_water[:5]),
        )

        # progress summaries
        logged_replies = {
            str(r["id"])
            for r in replies
            if ((r["metadata"] or {}).get("response") or {}).get("entries")
        }
        summary_for = collections.Counter(
            (s["metadata"] or {}).get("summary_for") for s in summaries
        )
        record(
            "one progress summary per logged reply, by the worker",
            set(summary_for) == logged_replies and all(n == 1 for n in summary_for.values()),
            f"{len(summaries)} summaries for {len(logged_replies)} logged replies"
            + (f", the last {drained:.1f} s after the load" if drained >= 0 else ", timed out"),
        )
        dups = (
            ChatMessage.objects.exclude(idempotency_key=None)
            .values("user_id", "idempotency_key")
            .annotate(n=Count("id"))
            .filter(n__gt=1)
            .count()
        )
        record("no duplicate chat messages per key (SQL)", dups == 0, f"{dups} duplicated keys")

        print("\nchecks")
        for name, ok, detail in results:
            print(f"  {'PASS' if ok else 'FAIL'}  {name}: {detail}")
        return sum(1 for _, ok, _ in results if not ok)

    def server_problems(self) -> int:
        found = 0
        for log in (self.web_log, self.worker_log):
            text = log.read_text(errors="replace")
            tracebacks = text.count("Traceback (most recent call last)")
            errors = len(re.findall(r"\b(ERROR|CRITICAL)\b", text))
            if tracebacks or errors:
                print(f"{log.name}: {tracebacks} tracebacks, {errors} ERROR lines")
                found += tracebacks + errors
        return found


def cpu_snapshot() -> dict[str, float]:
    """CPU seconds used so far: this bench's web server, worker and itself (processes that live
    through the run), and the whole machine's busy time. The rest of the machine (Postgres, Redis,
    other people's work) is the difference: Postgres backends come and go, so they are not summed
    per process."""
    tick = os.sysconf("SC_CLK_TCK")
    procs = {}
    for pid in filter(str.isdigit, os.listdir("/proc")):
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
            cmd = Path(f"/proc/{pid}/cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()
        procs[int(pid)] = (int(fields[1]), (int(fields[11]) + int(fields[12])) / tick, cmd)
    mine = {os.getpid()}
    grew = True
    while grew:
        grew = False
        for pid, (ppid, *_rest) in procs.items():
            if ppid in mine and pid not in mine:
                mine.add(pid)
                grew = True
    used: collections.Counter = collections.Counter()
    for pid in mine:
        _ppid, seconds, cmd = procs[pid]
        if pid == os.getpid():
            used["bench (clients, fake LLM)"] += seconds
        else:
            used["worker" if "celery" in cmd else "web"] += seconds
    # user nice system idle iowait irq softirq steal: busy = all but idle and iowait
    jiffies = [int(v) for v in Path("/proc/stat").read_text().split("\n")[0].split()[1:9]]
    used["machine"] = (sum(jiffies) - jiffies[3] - jiffies[4]) / tick
    return used


def pct(ordered: list[float], q: float) -> float:
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def format_counts(counter: collections.Counter) -> str:
    return ", ".join(f"{k or 'no answer'}: {v}" for k, v in sorted(counter.items()))


if __name__ == "__main__":
    sys.exit(main())
