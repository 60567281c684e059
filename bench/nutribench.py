"""NutriBench's meals told to Sparky: how often the right diary lands, on meals others wrote.

NutriBench (Hua et al., ICLR 2025) describes US meals from What We Eat in America's dietary recalls
in plain sentences, with the FNDDS nutrients of what was eaten. Its files live OUTSIDE this
repository, in ../shared/eval/ (CC BY-NC-SA 4.0, for evaluation only: never copied here); when they
are missing this script says so in one line and exits 0.

Each meal is told as one message to a fresh user (UTC, default preferences) through the real coach
(`chat.turn.coach.handle_turn`), with no AI service (Sparky's own reader) or, with --model, an AI
service pointing at a local llama.cpp server (bench/model_server.sh), against the real public
catalog, rolled back afterwards. It prints, per file:

- logged: meals that saved any food entry;
- kcal@20%: meals whose saved calories are within 20% of the reference (within 10 kcal when the
  reference is under 50 kcal, e.g. a glass of water);
- Acc@7.5g: meals whose saved carbohydrate is within 7.5 g of the reference (the paper's metric);
- MAE: mean absolute error of calories and carbohydrate;
- invented: saved entries whose food shares no content word with the message (a food nobody
  named), of all entries saved.

    .venv/bin/python bench/nutribench.py --limit 100                 # both files, first 100 meals
    .venv/bin/python bench/nutribench.py --file natural --offset 100 --limit 100
    .venv/bin/python bench/nutribench.py --limit 30 --failures       # and each meal that missed
    .venv/bin/python bench/nutribench.py --limit 30 --model 1.5b --port 8765   # with the model
    .venv/bin/python bench/nutribench.py --limit 30 --ask --port 8765   # the model alone, asked
                        # for the meal's totals step by step, the benchmark's way (no Sparky)

With --model or --ask a llama.cpp server must already answer on --port (make model-server).
NUTRIBENCH_DIR points at the files from another checkout (default ../shared/eval).

Chunks: --offset/--limit keep a run within minutes; sum the counts of chunks for a whole file.
The scratch database is `<name>_nutribench` (created, loaded, kept for the next run unless --drop).
"""

import argparse
import csv
import io
import os
import re
import statistics
import sys
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
EVAL = Path(os.environ.get("NUTRIBENCH_DIR") or ROOT.parent / "shared" / "eval")  # another checkout
FILES = {"natural": "nutribench-us-natural.csv", "metric": "nutribench-us-metric.csv"}
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
BASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sparky")
_parts = urlsplit(BASE_URL)
SCRATCH = f"{_parts.path.lstrip('/') or 'sparky'}_nutribench"
os.environ["DATABASE_URL"] = urlunsplit(_parts._replace(path=f"/{SCRATCH}"))
os.environ.pop("CELERY_BROKER_URL", None)
os.environ["SPARKY_ALLOW_PRIVATE_AI_URLS"] = "true"  # --model: the model server is on loopback


def read_meals(name: str, offset: int, limit: int | None) -> list[dict]:
    with open(EVAL / FILES[name], newline="", encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    rows = rows[offset : offset + limit if limit else None]
    return [
        {
            "n": offset + i,
            "text": row["meal_description"],
            "carbs": float(row["carb"]),
            "kcal": float(row["energy"]),
        }
        for i, row in enumerate(rows)
    ]


_WORD = re.compile(r"[a-z]+")


def content_words(text: str) -> set[str]:
    from sparky.words import singular

    return {singular(w) for w in _WORD.findall(text.lower()) if len(w) >= 3}


def said_words(text: str) -> set[str]:
    """The message's content words and the names the catalog gives them ("ketchup" is SR28's
    "Catsup": nutrition.search.SYNONYMS), so a food named otherwise is not counted invented."""
    from nutrition.search import SYNONYMS

    words = content_words(text)
    return words | {
        other
        for word in words
        for stem, names in SYNONYMS.items()
        if word.startswith(stem)
        for name in names
        for other in name.split()
    }


def invented(food_name: str, message_words: set[str]) -> bool:
    """A food sharing no content word (3+ letters, singular, prefix-tolerant) with the message."""
    words = content_words(food_name)
    if not words:
        return False
    for word in words:
        for said in message_words:
            if word == said or (
                min(len(word), len(said)) >= 4 and (word.startswith(said) or said.startswith(word))
            ):
                return False
    return True


class _Discard(Exception):
    pass


def tell(meal: dict, send) -> dict:
    """One meal as one message of a fresh user; what the diary saved, rolled back."""
    import time_machine
    from django.db import transaction

    from nutrition.models import FoodEntry
    from nutrition.services import entry_nutrients
    from sparky.models import User
    from tests.evals.scoring import FROZEN_AT

    result: dict = {}
    try:
        with transaction.atomic():
            with time_machine.travel(FROZEN_AT, tick=True):
                user = User.objects.create_user(
                    email=f"nb-{uuid.uuid4().hex[:12]}@example.com", password=None, time_zone="UTC"
                )
                started = time.monotonic()
                answer = send(user, meal["text"])
                result["seconds"] = time.monotonic() - started
                result["reply"] = getattr(answer, "message", "") or ""
                entries = []
                for entry in FoodEntry.objects.for_user(user).select_related("food"):
                    values = entry_nutrients(entry)
                    entries.append(
                        {
                            "name": entry.food.name,
                            "quantity": float(entry.quantity),
                            "unit": entry.unit or "",
                            "kcal": float(values.get("calories") or 0),
                            "carbs": float(values.get("carbs") or 0),
                        }
                    )
                result["entries"] = entries
            raise _Discard
    except _Discard:
        pass
    except Exception as exc:  # a crash is a miss; the run goes on
        result = {"entries": [], "reply": f"crashed: {exc!r}", "seconds": 0.0}
    return result


def judged(meal: dict, result: dict) -> dict:
    entries = result["entries"]
    kcal = sum(e["kcal"] for e in entries)
    carbs = sum(e["carbs"] for e in entries)
    said = said_words(meal["text"])
    kcal_ok = abs(kcal - meal["kcal"]) <= max(0.2 * meal["kcal"], 10.0)
    return {
        **meal,
        **result,
        "got_kcal": kcal,
        "got_carbs": carbs,
        "logged": bool(entries),
        "kcal_ok": kcal_ok,
        "carbs_ok": abs(carbs - meal["carbs"]) <= 7.5,
        "invented": [e["name"] for e in entries if invented(e["name"], said)],
    }


def summary(name: str, rows: list[dict]) -> str:
    n = len(rows)
    entries = sum(len(r["entries"]) for r in rows)
    made_up = sum(len(r["invented"]) for r in rows)
    seconds = [r["seconds"] for r in rows] or [0.0]

    def share(key: str) -> str:
        count = sum(r[key] for r in rows)
        return f"{count}/{n} ({100 * count / max(n, 1):.0f}%)"

    def mae(got: str, want: str) -> float:
        return statistics.fmean([abs(r[got] - r[want]) for r in rows]) if rows else 0.0

    return (
        f"{name:8} meals {n}: logged {share('logged')}, kcal@20% {share('kcal_ok')}, "
        f"Acc@7.5g {share('carbs_ok')}, MAE {mae('got_kcal', 'kcal'):.0f} kcal / "
        f"{mae('got_carbs', 'carbs'):.1f} g, invented {made_up}/{entries} entries, "
        f"p50 {statistics.median(seconds):.2f} s"
    )


def failure(row: dict) -> str:
    got = "; ".join(
        f"{e['quantity']:g} {e['unit']} {e['name']} ({e['kcal']:.0f} kcal, {e['carbs']:.0f} g)"
        for e in row["entries"]
    )
    marks = "".join(
        [" kcal" if not row["kcal_ok"] else "", " carbs" if not row["carbs_ok"] else ""]
    )
    lines = [
        f"#{row['n']}{marks}: {row['text']}",
        f"    want {row['kcal']:.0f} kcal {row['carbs']:.0f} g; got {row['got_kcal']:.0f} kcal "
        f"{row['got_carbs']:.0f} g: {got or 'nothing'}",
    ]
    if row["invented"]:
        lines.append(f"    invented: {', '.join(row['invented'])}")
    if not row["entries"]:
        lines.append(f"    reply: {row['reply'][:200]}")
    return "\n".join(lines)


ASK = (
    "Here is what someone ate at one meal. Work out, one food at a time, what each food and its "
    "portion weighs and how many grams of carbohydrate and calories it holds, then add them up. "
    "End with two lines exactly like:\nTotal carbs: <number> g\nTotal calories: <number> kcal"
    "\n\nMeal: {meal}"
)
_TOTAL = re.compile(
    r"total\s+(carbs?|carbohydrates?|calories|energy)\D{0,12}?([0-9]+(?:\.[0-9]+)?)", re.I
)


def ask_model(meal: dict, port: int) -> dict:
    """The benchmark's own way: the model alone asked for the meal's totals, step by step."""
    import json
    import urllib.request

    body = json.dumps(
        {
            "messages": [{"role": "user", "content": ASK.format(meal=meal["text"])}],
            "max_tokens": 400,
            "temperature": 0,
        }
    ).encode()
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/v1/chat/completions", body, {"content-type": "application/json"}
    )
    started = time.monotonic()
    try:
        with urllib.request.urlopen(request, timeout=600) as response:
            text = json.load(response)["choices"][0]["message"]["content"] or ""
    except OSError as exc:
        text = f"failed: {exc}"
    totals = {}
    for kind, number in _TOTAL.findall(text):
        totals["kcal" if kind.lower() in ("calories", "energy") else "carbs"] = float(number)
    entry = {
        "name": meal["text"],  # an estimate of the meal as said: never counted as invented
        "quantity": 1.0,
        "unit": "",
        "kcal": totals.get("kcal", 0.0),
        "carbs": totals.get("carbs", 0.0),
    }
    return {
        "entries": [entry] if totals else [],
        "reply": text[-300:],
        "seconds": time.monotonic() - started,
    }


def model_sender(model: str, port: int, row: str):
    """Send through an AI service on the local llama.cpp server, set up as model_eval's `row`
    (sure-core: Sparky reads first, the core profile; the server must already be running)."""
    sys.path.insert(0, str(ROOT / "bench"))
    import model_eval  # noqa: PLC0415

    if not model_eval.healthy(port):
        raise SystemExit(f"no model server on :{port} (make model-server)")
    return model_eval.Row(row, model, port).send


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--file", choices=[*FILES, "both"], default="both")
    parser.add_argument("--offset", type=int, default=0)
    parser.add_argument("--limit", type=int, default=100)
    parser.add_argument("--failures", action="store_true", help="print every meal that missed")
    parser.add_argument("--model", help="an AI service on a local server (e.g. 1.5b)")
    parser.add_argument("--port", type=int, default=8765)
    parser.add_argument("--row", default="sure-core", help="how the model is set up (model_eval)")
    parser.add_argument(
        "--ask", action="store_true", help="ask the model alone for each meal's totals (no Sparky)"
    )
    parser.add_argument("--drop", action="store_true", help="drop the scratch database after")
    args = parser.parse_args()
    missing = [f for f in FILES.values() if not (EVAL / f).exists()]
    if missing:
        print(f"NutriBench files not found in {EVAL} ({', '.join(missing)}): skipped.")
        return

    import django

    django.setup()
    from django.core.management import call_command

    from chat.turn.coach import TurnRejected, handle_turn
    from config.management.commands.sparky_setup import ensure_database

    ensure_database()
    call_command("migrate", verbosity=0)
    call_command("load_catalog", if_needed=True, verbosity=0, stdout=io.StringIO())

    def offline(user, text):
        try:
            return handle_turn(user, text)
        except TurnRejected as exc:
            return type("Refused", (), {"message": str(exc)})()

    send = model_sender(args.model, args.port, args.row) if args.model and not args.ask else offline
    names = list(FILES) if args.file == "both" else [args.file]
    lines = []
    for name in names:
        meals = read_meals(name, args.offset, args.limit)
        if args.ask:
            rows = [judged(meal, ask_model(meal, args.port)) for meal in meals]
        else:
            rows = [judged(meal, tell(meal, send)) for meal in meals]
        if args.failures:
            for row in rows:
                if not (row["kcal_ok"] and row["carbs_ok"]) or row["invented"]:
                    print(failure(row))
            print()
        lines.append(summary(name, rows))
    who = f"with {args.model} on :{args.port}" if args.model else "offline (no AI service)"
    if args.ask:
        who = f"the model on :{args.port} asked alone, step by step (no Sparky)"
    print(f"NutriBench, meals {args.offset}-{args.offset + args.limit - 1}, {who}")
    print("\n".join(lines))
    if args.drop:
        from tests.evals.scoring import drop_database

        drop_database(SCRATCH)


if __name__ == "__main__":
    main()
