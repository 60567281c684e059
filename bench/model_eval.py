"""The coach against a real small model: how often the right entry lands in the diary.

Runs an evaluation set (--set: the real-model set tests/evals/model_cases.jsonl by default, or the
diary or questions set; --cases FILE for another; format in tests/evals/scoring.py)
through `chat.turn.coach.handle_turn` with an AI service pointing at a local llama.cpp server
(bench/model_server.sh: Qwen2.5-Coder 1.5B or 0.5B), against the real public catalog, each case a
fresh user rolled back afterwards, at Wednesday 2026-12-02 12:30 UTC. For every row (a way of
running the coach) and every model it prints:

- success: cases whose diary result is what the case expects (entries, kcal, minutes, values, or
  nothing at all), as a percentage;
- dup: entries that repeat another of the same turn (same food or activity, same amount);
- ungr: entries in a domain the case expects nothing of (a greeting that logs water);
- nothing-w: messages that report nothing (questions, advice, small talk, wishes, plans,
  negations, other people: the cases that expect no entry and no question back,
  scoring.reports_nothing) that wrote something, of how many such messages;
- mach: replies that show machinery (a model file, a tool name, a step count: scoring.MACHINERY),
  every reply of every case counted, the `before` turns' included;
- fb: turns the coach handed to its offline parser because the model failed or claimed a save;
- tokens: prompt tokens sent per turn (mean; classifier included);
- no model request: scored turns Sparky answered alone, with no prompt sent to the model;
- p50/p95: turn latency in seconds, as the cases came (the server's prompt cache holds whatever the
  previous turn left).

Then a latency pass on logging messages through the model (--latency-row, core-auto by default):
each sent cold (the server's prompt cache flushed first) and then again as the user's second turn
(warm: the system prompt and tools are already in the cache), with p50/p95 of both and their
ratio.

Rows (--rows, comma-separated):
  core-auto    core profile, tools chosen by the classifier (Sparky's default for small models)
  core-all     core profile, every core category at once (manual selection of all of them)
  full-auto    full profile, auto
  full-all     full profile, every category at once
  json-core    intent-JSON mode (no tool calling), core profile, reply held to the intent schema
  sure-core    Sparky first: what the offline parser reads with certainty is logged without the
               model; the rest goes to the model, core profile, auto
  sure-json    Sparky first, then intent-JSON mode

    .venv/bin/python bench/model_eval.py                              # 1.5b, every row
    .venv/bin/python bench/model_eval.py --models 1.5b,0.5b --rows core-auto,sure-core
    .venv/bin/python bench/model_eval.py --limit 30 --failures        # the first 30 cases
    .venv/bin/python bench/model_eval.py --set questions --offset 90 --limit 90 --latency 0
                            # cases 91-180 of the questions set (--set diary|model|questions)
    .venv/bin/python bench/model_eval.py --port 8765                  # a server already running

A server already answering on --port is used as it is (its model is whatever it serves: pass the
matching --models); otherwise bench/model_server.sh is started for each model and stopped after.
The scratch database `<name>_model_eval` is created, loaded and dropped (kept with --keep).
"""

import argparse
import inspect
import io
import json
import os
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
BASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sparky")
_parts = urlsplit(BASE_URL)
SCRATCH = f"{_parts.path.lstrip('/') or 'sparky'}_model_eval"
os.environ["DATABASE_URL"] = urlunsplit(_parts._replace(path=f"/{SCRATCH}"))
os.environ.pop("CELERY_BROKER_URL", None)  # no broker: nothing leaves the process
os.environ["SPARKY_ALLOW_PRIVATE_AI_URLS"] = "true"  # the model server is on loopback
os.environ.setdefault("LOG_LEVEL", "ERROR")

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

try:  # bench/compare_commits.py runs this file at commits from before the AI services' own app
    from aiservices.services import ai_service_create
except ImportError:
    from chat.services import ai_service_create
from chat.categories import PROFILE_DEFAULTS  # noqa: E402
from chat.turn.coach import TurnRejected, handle_turn  # noqa: E402
from config.management.commands.sparky_setup import ensure_database  # noqa: E402
from tests.evals.scoring import (  # noqa: E402
    SETS,
    WRITE_DOMAINS,
    drop_database,
    evaluate,
    load_cases,
    machinery_replies,
    nothing_writes,
    report,
    score,
)

ROWS = {
    # name: (profile, manual categories or None for auto, tool calling, understanding)
    "core-auto": ("core", None, True, "model"),
    "core-all": ("core", "all", True, "model"),
    "full-auto": ("full", None, True, "model"),
    "full-all": ("full", "all", True, "model"),
    "json-core": ("core", None, False, "model"),
    "sure-core": ("core", None, True, "sparky_first"),
    "sure-json": ("core", None, False, "sparky_first"),
}
DOMAINS = WRITE_DOMAINS


def drop_scratch() -> None:
    drop_database(SCRATCH)


# --- the model server --------------------------------------------------------------------------


def healthy(port: int) -> bool:
    try:
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/health", timeout=2) as r:
            return r.status == 200
    except OSError:
        return False


class Server:
    """The llama.cpp server on `port`: one already running, or bench/model_server.sh for `model`."""

    def __init__(self, model: str, port: int):
        self.model, self.port, self.process = model, port, None

    def __enter__(self):
        if healthy(self.port):
            return self
        env = {**os.environ, "MODEL": self.model, "MODEL_PORT": str(self.port)}
        log = open(f"/tmp/sparky-model-server-{self.model}.log", "w")  # noqa: SIM115
        self.process = subprocess.Popen(
            ["bash", str(ROOT / "bench" / "model_server.sh"), "serve"],
            env=env,
            stdout=log,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 3600  # a first run builds llama.cpp (about 15 min)
        while not healthy(self.port):
            if self.process.poll() is not None:
                raise SystemExit(f"the model server stopped: see {log.name}")
            if time.monotonic() > deadline:
                raise SystemExit("the model server did not come up")
            time.sleep(1)
        return self

    def __exit__(self, *exc):
        if self.process is not None:
            self.process.send_signal(2)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()

    def flush(self) -> None:
        """Replace the server's cached prompt with an unrelated one: the next turn is cold."""
        body = json.dumps(
            {"messages": [{"role": "user", "content": f"flush {time.time()}"}], "max_tokens": 1}
        ).encode()
        request = urllib.request.Request(
            f"http://127.0.0.1:{self.port}/v1/chat/completions",
            body,
            {"content-type": "application/json"},
        )
        with urllib.request.urlopen(request, timeout=60):
            pass


# --- one row -----------------------------------------------------------------------------------


class Row:
    """Sends a case's messages as the row says, and keeps what each scored turn cost."""

    def __init__(self, name: str, model: str, port: int):
        self.name, self.model, self.port = name, model, port
        self.profile, manual, self.tools, self.understanding = ROWS[name]
        self.categories = list(PROFILE_DEFAULTS[self.profile]) if manual == "all" else None
        self._users: set = set()
        self.last = {"seconds": 0.0, "usage": {}, "engine": ""}  # the latest turn's cost

    def send(self, user, text):
        if user.pk not in self._users:
            self._users.add(user.pk)
            ai_service_create(
                user=user,
                service_name=f"Qwen2.5-Coder {self.model}",
                service_type="custom",
                api_key="",
                model_name=f"qwen2.5-coder-{self.model}",
                custom_url=f"http://127.0.0.1:{self.port}/v1",
                tool_profile=self.profile,
                supports_tools=self.tools,
                sparky_reads_first=self.understanding == "sparky_first",
                is_active=True,
            )
        started = time.monotonic()
        first_text: list[float] = []

        def heard(kind, data):  # the turn as the page streams it: when its first words came
            if kind == "text" and not first_text:
                first_text.append(time.monotonic() - started)

        try:
            listens = "events" in inspect.signature(handle_turn).parameters  # older commits
            response = handle_turn(
                user, text, categories=self.categories, **({"events": heard} if listens else {})
            )
        except TurnRejected as exc:
            response = None
            message = str(exc)
        self.last = {
            "seconds": time.monotonic() - started,
            "usage": dict(getattr(response, "usage", None) or {}),
            "engine": getattr(response, "engine", "") or "",
            "action": getattr(response, "action", "") or "",
            "first_text": first_text[0] if first_text else None,
        }
        if response is None:

            class Refused:
                action, options = "none", None

            Refused.message = message
            return Refused
        return response


def duplicates(outcome) -> int:
    seen, dup = set(), 0
    for e in outcome.food:
        key = ("food", e["name"], e["quantity"], e["unit"])
        dup += key in seen
        seen.add(key)
    for e in outcome.exercise:
        key = ("exercise", e["name"], e["minutes"])
        dup += key in seen
        seen.add(key)
    return dup


def ungrounded(case, outcome) -> int:
    """Entries in a domain the case expects nothing of."""
    expect = case.expect
    count = 0
    for domain in DOMAINS:
        if domain in expect:
            continue
        got = getattr(outcome, domain)
        count += len(got) if isinstance(got, list | dict) else int(bool(got))
    return count


def pct(values, q):
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def run_row(name, model, server, cases, *, failures, out):
    row = Row(name, model, server.port)
    per_case = []

    def progress(scored):
        per_case.append((scored, row.last))
        mark = "." if scored.passed else "x"
        print(mark, end="", flush=True)

    started = time.monotonic()
    results = evaluate(cases, send=row.send, progress=progress)
    print()
    passed, total = score(results)
    seconds = [last["seconds"] for _, last in per_case]
    tokens = [
        last["usage"].get("prompt_tokens", 0) + last["usage"].get("classifier_prompt_tokens", 0)
        for _, last in per_case
    ]
    wrote, quiet = nothing_writes(results)
    # Scored turns that sent the model nothing at all (Sparky answered: a sure reading, a
    # correction, a pick): no prompt tokens, the classifier's included.
    unasked = sum(1 for t in tokens if t == 0)
    summary = {
        "row": name,
        "model": model,
        "passed": passed,
        "total": total,
        "success": 100 * passed / max(total, 1),
        "dup": sum(duplicates(s.outcome) for s, _ in per_case),
        "ungrounded": sum(ungrounded(s.case, s.outcome) for s, _ in per_case),
        "nothing_writes": len(wrote),
        "reports_nothing": quiet,
        "machinery": len(machinery_replies(results)),
        "fallbacks": sum(last["engine"] == "offline" for _, last in per_case),
        "tokens": statistics.mean(tokens) if tokens else 0,
        "no_model_request": unasked,
        "p50": pct(seconds, 0.5),
        "p95": pct(seconds, 0.95),
        "minutes": (time.monotonic() - started) / 60,
    }
    # The turns the model handled that logged something: their full-turn p50, the tokens the
    # model generated in them, and when the first streamed words came.
    handled = [
        last for _, last in per_case if last["engine"] == "tools" and last["action"] == "logged"
    ]
    if handled:
        spans = [last["seconds"] for last in handled]
        generated = [last["usage"].get("completion_tokens", 0) for last in handled]
        firsts = [last["first_text"] for last in handled if last["first_text"] is not None]
        first = f"{pct(firsts, 0.5):.1f} s" if firsts else "-"
        print(
            f"{model} {name}: {len(handled)} model-handled logging turns: full-turn p50 "
            f"{pct(spans, 0.5):.1f} s, generated tokens per turn {statistics.mean(generated):.0f}, "
            f"first streamed text p50 {first}"
        )
    # At once, so a row stopped at its time limit has said what it got so far.
    print(
        f"{model} {name}: {passed}/{total}, machinery: {summary['machinery']} replies, "
        f"nothing-writes: {len(wrote)} of {quiet}, answered with no model request: "
        f"{unasked} of {len(tokens)} turns",
        flush=True,
    )
    if failures:
        print(report(results, failures=True))
    if out is not None:
        out.append(
            {
                **summary,
                "cases": [
                    {
                        "id": s.case.id,
                        "passed": s.passed,
                        "problems": s.problems,
                        "wrote": s.outcome.describe(),
                        "reply": s.outcome.reply,
                        "earlier": s.outcome.earlier,
                        **last,
                    }
                    for s, last in per_case
                ],
            }
        )
    return summary


def latency_pass(name, model, server, cases, count):
    """Logging cases sent cold (cache flushed), then again as the user's second turn (warm)."""
    logging = [c for c in cases if c.expect and not c.before and "food" in c.expect][:count]
    row = Row(name, model, server.port)
    cold, warm = [], []

    def send(user, text):
        server.flush()
        row.send(user, text)
        cold.append(row.last["seconds"])
        response = row.send(user, text)
        warm.append(row.last["seconds"])
        return response

    for scored in evaluate(logging, send=send):
        crashed = [p for p in scored.problems if p.startswith("crashed")]
        if crashed:  # a turn that failed to run is not a latency: say why
            print(f"latency {scored.case.id}: {crashed[0]}", flush=True)
    return cold, warm


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", dest="set_name", choices=SETS, default="model", help="the set")
    parser.add_argument("--cases", help="a .jsonl case file (instead of --set)")
    parser.add_argument("--models", default="1.5b", help="1.5b, 0.5b or both, comma-separated")
    parser.add_argument("--rows", default=",".join(ROWS), help=f"of {', '.join(ROWS)}")
    parser.add_argument("--port", type=int, default=int(os.environ.get("MODEL_PORT", 8765)))
    parser.add_argument("--limit", type=int, help="only the first N cases (after --offset)")
    parser.add_argument("--offset", type=int, default=0, help="skip the first N cases")
    parser.add_argument("--id", dest="id_part", help="only the cases whose id contains this")
    parser.add_argument("--latency", type=int, default=20, help="logging cases timed cold/warm")
    parser.add_argument(
        "--latency-row", default="core-auto", help="the row timed cold/warm (the model's own)"
    )
    parser.add_argument("--failures", action="store_true", help="print every failing case")
    parser.add_argument("--json", dest="json_path", help="write every result to this file")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args()
    args.cases = args.cases or os.path.relpath(SETS[args.set_name])

    rows = [r.strip() for r in args.rows.split(",") if r.strip()]
    unknown = [r for r in rows if r not in ROWS]
    if unknown:
        parser.error(f"unknown rows {unknown}; choose from {', '.join(ROWS)}")
    cases = load_cases(args.cases)
    if args.id_part:
        cases = [c for c in cases if args.id_part in c.id]
    if args.offset:
        cases = cases[args.offset :]
    if args.limit:
        cases = cases[: args.limit]

    if not args.keep:
        drop_scratch()
    ensure_database()
    call_command("migrate", verbosity=0)
    call_command("load_catalog", if_needed=True, verbosity=0, stdout=io.StringIO())
    out = [] if args.json_path else None
    summaries, latency = [], {}
    try:
        for model in [m.strip() for m in args.models.split(",") if m.strip()]:
            with Server(model, args.port) as server:
                for name in rows:
                    print(f"{model} {name}: {len(cases)} cases ", flush=True)
                    summaries.append(
                        run_row(name, model, server, cases, failures=args.failures, out=out)
                    )
                if args.latency:
                    latency[model] = latency_pass(
                        args.latency_row, model, server, cases, args.latency
                    )
    finally:
        if not args.keep:
            drop_scratch()

    print()
    chunk = f", cases {args.offset + 1}-{args.offset + len(cases)}" if args.offset else ""
    print(f"real-model evaluation: {args.cases} ({len(cases)} cases{chunk}), temperature 0")
    head = (
        f"{'model':<6} {'row':<10} {'success':>8} {'dup':>4} {'ungr':>5} {'nothing-w':>9} "
        f"{'fb':>4} {'mach':>5} {'tokens':>7} {'p50 s':>6} {'p95 s':>6} {'min':>5}"
    )
    print(head)
    print("-" * len(head))
    for s in summaries:
        print(
            f"{s['model']:<6} {s['row']:<10} {s['success']:>7.1f}% {s['dup']:>4} "
            f"{s['ungrounded']:>5} {s['nothing_writes']:>4}/{s['reports_nothing']:<4} "
            f"{s['fallbacks']:>4} {s['machinery']:>5} {s['tokens']:>7.0f} {s['p50']:>6.1f} "
            f"{s['p95']:>6.1f} "
            f"{s['minutes']:>5.1f}"
        )
    for model, (cold, warm) in latency.items():
        c50, w50 = pct(cold, 0.5), pct(warm, 0.5)
        print(
            f"\n{model} {args.latency_row}, {len(cold)} logging turns: cold p50 {c50:.1f} s, p95 "
            f"{pct(cold, 0.95):.1f} s; second turn, warm prefix: p50 {w50:.1f} s, p95 "
            f"{pct(warm, 0.95):.1f} s; warm/cold p50 {w50 / c50:.2f}"
        )
    if args.json_path:
        Path(args.json_path).write_text(json.dumps({"rows": out}, indent=1, default=str))
        print(f"\nwrote {args.json_path}")


if __name__ == "__main__":
    main()
