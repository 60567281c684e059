"""Score the diary evaluation set: what everyday messages write in the diary, against what is right.

Runs every case of tests/evals/diary_cases.jsonl through the real coach
(`chat.turn.coach.handle_turn`) with NO AI service, so Sparky's built-in offline parser answers,
against the real public catalog
(USDA SR28, Compendium, wger, as `manage.py load_catalog` loads it). Each case is a fresh user (UTC,
default preferences) whose turn is rolled back afterwards, at a fixed moment: Wednesday 2026-12-02
12:30 UTC (time-machine, ticking), so a food with no meal said is lunch. The database is a scratch
one named after DATABASE_URL's (`<name>_diary_eval`): created, migrated, loaded, dropped at the end
(kept with --keep, and then reused by the next run).

    .venv/bin/python bench/diary_eval.py                      # accuracy overall and per tag
    .venv/bin/python bench/diary_eval.py --failures           # and every failing case, why
    .venv/bin/python bench/diary_eval.py --tag container --failures
    .venv/bin/python bench/diary_eval.py --id pretzel --failures   # cases whose id contains it
    .venv/bin/python bench/diary_eval.py --json /tmp/diary.json    # every result, machine-readable
    .venv/bin/python bench/diary_eval.py --set questions --failures   # another set: diary, model,
                                # questions, unseen, told, told2, conversation, conversation2,
                                # conversation3
                                # (or --cases FILE)

Besides the score it prints how many replies show machinery (scoring.MACHINERY, every reply of
every case) and how many messages that report nothing wrote anything ("nothing-writes").

Exit status 0 whatever the score (the floor is enforced by tests/evals/test_diary_eval.py).
"""

import argparse
import io
import json
import os
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
BASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sparky")
_parts = urlsplit(BASE_URL)
SCRATCH = f"{_parts.path.lstrip('/') or 'sparky'}_diary_eval"
os.environ["DATABASE_URL"] = urlunsplit(_parts._replace(path=f"/{SCRATCH}"))
os.environ.pop("CELERY_BROKER_URL", None)  # no broker: nothing leaves the process

import django  # noqa: E402

django.setup()

from django.core.management import call_command  # noqa: E402

from config.management.commands.sparky_setup import ensure_database  # noqa: E402
from tests.evals.scoring import (  # noqa: E402
    SETS,
    drop_database,
    evaluate,
    load_cases,
    machinery_replies,
    nothing_writes,
    report,
    score,
    wrong_writes,
)


def drop_scratch() -> None:
    drop_database(SCRATCH)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--set", dest="set_name", choices=SETS, default="diary", help="the set")
    parser.add_argument("--cases", help="a .jsonl case file (instead of --set)")
    parser.add_argument("--tag", help="only the cases with this tag")
    parser.add_argument("--id", dest="id_part", help="only the cases whose id contains this")
    parser.add_argument("--failures", action="store_true", help="print every failing case")
    parser.add_argument("--json", dest="json_path", help="write every result to this file")
    parser.add_argument("--keep", action="store_true", help="keep the scratch database")
    args = parser.parse_args()
    args.cases = args.cases or os.path.relpath(SETS[args.set_name])

    cases = load_cases(args.cases, tag=args.tag)
    if args.id_part:
        cases = [c for c in cases if args.id_part in c.id]
    started = time.monotonic()
    if not args.keep:
        drop_scratch()
    ensure_database()
    call_command("migrate", verbosity=0)
    call_command("load_catalog", if_needed=True, verbosity=0, stdout=io.StringIO())
    ready = time.monotonic()
    try:
        results = evaluate(cases)
    finally:
        if not args.keep:
            drop_scratch()
    done = time.monotonic()

    passed, total = score(results)
    print(f"diary evaluation: {args.cases} ({total} cases)")
    print(
        f"offline coach, real catalog, frozen at Wed 2026-12-02 12:30 UTC; setup "
        f"{ready - started:.1f} s, cases {done - ready:.1f} s "
        f"({1000 * (done - ready) / max(total, 1):.0f} ms per case)"
    )
    print()
    print(report(results, failures=args.failures))
    if args.json_path:
        rows = [
            {
                "id": r.case.id,
                "text": r.case.text,
                "tags": list(r.case.tags),
                "passed": r.passed,
                "problems": r.problems,
                "wrote": r.outcome.describe(),
                "action": r.outcome.action,
                "touched": r.outcome.touched,
                "reply": r.outcome.reply,
                "earlier": r.outcome.earlier,
            }
            for r in results
        ]
        wrote, quiet = nothing_writes(results)
        summary = {
            "passed": passed,
            "total": total,
            "accuracy": passed / max(total, 1),
            "machinery": len(machinery_replies(results)),
            "nothing_writes": len(wrote),
            "reports_nothing": quiet,
            "wrong_writes": len(wrong_writes(results)),
        }
        Path(args.json_path).write_text(json.dumps({**summary, "cases": rows}, indent=1))
        print(f"\nwrote {args.json_path}")


if __name__ == "__main__":
    main()
