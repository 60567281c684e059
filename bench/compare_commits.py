"""Two commits of the coach against the same real model, interleaved, in one run.

The same logging messages go through `bench/model_eval.py` at commit BEFORE and at commit AFTER, a
few cases at a time, the order of the two turning each chunk (A B, B A, A B...), so a machine that
gets busier or quieter during the run weighs on both alike. Each commit runs from a checkout of its
own (a detached `git worktree` under /tmp, made once and kept) with this checkout's
`bench/model_eval.py` copied in, against a scratch database of its own; the model server on --port
must be running (`make model-server`). Nothing of this checkout is used while it runs, so it can be
edited meanwhile.

For each commit it prints, over the turns the model handled that logged something (engine
"tools", action "logged"): how many, the full-turn p50 and p95, the tokens the model generated per
turn, the time to the first streamed text (where the commit streams), and the AFTER/BEFORE ratio of
the p50s; then the same over the cases both commits' model handled (paired).

    .venv/bin/python bench/compare_commits.py --before 591d883 --after HEAD --limit 12
    .venv/bin/python bench/compare_commits.py --before 591d883 --rows core-auto --chunk 2 \\
        --offset 12 --limit 12 --json /tmp/second.json     # the next twelve logging cases

Cases: the logging cases of the set (they expect food and send no earlier turn), --offset and
--limit among them.
"""

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

ROOT = Path(__file__).resolve().parent.parent
SETS = {
    "model": ROOT / "tests/evals/model_cases.jsonl",
    "diary": ROOT / "tests/evals/diary_cases.jsonl",
    "questions": ROOT / "tests/evals/question_cases.jsonl",
}
BASE_URL = os.environ.get("DATABASE_URL", "postgres://postgres@127.0.0.1:5432/sparky")


def git(*args: str) -> str:
    return subprocess.run(
        ["git", "-C", str(ROOT), *args], check=True, capture_output=True, text=True
    ).stdout.strip()


def checkout(rev: str) -> tuple[str, Path]:
    """A detached worktree of rev under /tmp, with this checkout's model_eval.py in it."""
    sha = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    tree = Path(tempfile.gettempdir()) / f"sparky-at-{sha[:12]}"
    if not (tree / "manage.py").exists():
        git("worktree", "add", "--detach", str(tree), sha)
    shutil.copy(ROOT / "bench/model_eval.py", tree / "bench/model_eval.py")
    return sha, tree


def logging_cases(path: Path) -> list[str]:
    lines = []
    for line in path.read_text().splitlines():
        if not line.strip() or line.lstrip().startswith("//"):
            continue
        case = json.loads(line)
        if "food" in (case.get("expect") or {}) and not case.get("before"):
            lines.append(line)
    return lines


def run_chunk(sha: str, tree: Path, lines: list[str], args) -> list[dict]:
    """model_eval.py at one commit over a few cases; the per-case figures it wrote."""
    with tempfile.TemporaryDirectory() as scratch:
        cases = Path(scratch) / "cases.jsonl"
        cases.write_text("\n".join(lines) + "\n")
        out = Path(scratch) / "out.json"
        parts = urlsplit(BASE_URL)
        env = {
            **os.environ,
            "DATABASE_URL": urlunsplit(parts._replace(path=f"/sparky_at_{sha[:12]}")),
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        command = [
            str(ROOT / ".venv/bin/python"),
            "bench/model_eval.py",
            "--cases",
            str(cases),
            "--models",
            args.model,
            "--rows",
            args.row,
            "--port",
            str(args.port),
            "--latency",
            "0",
            "--keep",  # the scratch database is migrated and loaded once per commit
            "--json",
            str(out),
        ]
        done = subprocess.run(command, cwd=tree, env=env, capture_output=True, text=True)
        if done.returncode or not out.exists():
            sys.exit(f"{sha[:12]} failed:\n{done.stdout[-2000:]}\n{done.stderr[-3000:]}")
        return json.loads(out.read_text())["rows"][0]["cases"]


def handled(case: dict) -> bool:
    return case.get("engine") == "tools" and case.get("action") == "logged"


def pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))] if values else None


def figures(cases: list[dict]) -> dict:
    turns = [c for c in cases if handled(c)]
    seconds = [c["seconds"] for c in turns]
    firsts = [c["first_text"] for c in turns if c.get("first_text") is not None]
    generated = [(c.get("usage") or {}).get("completion_tokens", 0) for c in turns]
    return {
        "turns": len(turns),
        "passed": sum(c["passed"] for c in cases),
        "cases": len(cases),
        "p50": pct(seconds, 0.5),
        "p95": pct(seconds, 0.95),
        "generated": statistics.mean(generated) if generated else None,
        "first": pct(firsts, 0.5),
    }


def show(label: str, f: dict) -> str:
    def s(v, unit=" s"):
        return "-" if v is None else f"{v:.1f}{unit}"

    return (
        f"{label:<22} {f['passed']:>3}/{f['cases']:<3} {f['turns']:>5} {s(f['p50']):>8} "
        f"{s(f['p95']):>8} {s(f['generated'], ''):>9} {s(f['first']):>10}"
    )


def show_all(results: dict[str, list[dict]], title: str, before_sha: str, after_sha: str):
    before, after = figures(results["before"]), figures(results["after"])
    both = {c["id"] for c in results["before"] if handled(c)} & {
        c["id"] for c in results["after"] if handled(c)
    }
    paired_b = figures([c for c in results["before"] if c["id"] in both])
    paired_a = figures([c for c in results["after"] if c["id"] in both])
    print()
    print(title)
    print(
        f"{'commit':<22} {'passed':>7} {'turns':>5} {'p50':>8} {'p95':>8} {'generated':>9} "
        f"{'first text':>10}"
    )
    print(show(f"before {before_sha}", before))
    print(show(f"after  {after_sha}", after))
    print(show("before, paired", paired_b))
    print(show("after, paired", paired_a))
    for label, b, a in (("all", before, after), ("paired", paired_b, paired_a)):
        if b["p50"] and a["p50"]:
            print(f"full-turn p50 after/before ({label}): {a['p50'] / b['p50']:.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--before", required=True, help="the commit before the change")
    parser.add_argument("--after", default="HEAD", help="the commit with it (HEAD)")
    parser.add_argument("--set", dest="set_name", choices=SETS, default="model")
    parser.add_argument("--row", default="core-auto", help="a model_eval.py row (core-auto)")
    parser.add_argument("--model", default="1.5b")
    parser.add_argument("--port", type=int, default=int(os.environ.get("MODEL_PORT", 8765)))
    parser.add_argument("--offset", type=int, default=0, help="skip the first N logging cases")
    parser.add_argument("--limit", type=int, default=12, help="logging cases to run")
    parser.add_argument("--chunk", type=int, default=3, help="cases per turn of a commit")
    parser.add_argument("--json", dest="json_path", help="write every case's figures here")
    parser.add_argument(
        "--report", nargs="+", metavar="JSON", help="print the figures of earlier runs' --json"
    )
    args = parser.parse_args()
    if args.report:  # chunks run one after another, summed
        results = {"before": [], "after": []}
        for path in args.report:
            for side, cases in json.loads(Path(path).read_text()).items():
                results[side] += cases
        show_all(results, f"{args.model} {args.row}, {len(results['before'])} cases", "", "")
        return

    lines = logging_cases(SETS[args.set_name])[args.offset : args.offset + args.limit]
    sides = {"before": checkout(args.before), "after": checkout(args.after)}
    results: dict[str, list[dict]] = {"before": [], "after": []}
    started = time.monotonic()
    for number, first in enumerate(range(0, len(lines), args.chunk)):
        chunk = lines[first : first + args.chunk]
        order = ("before", "after") if number % 2 == 0 else ("after", "before")
        for side in order:
            results[side] += run_chunk(*sides[side], chunk, args)
        so_far = {side: figures(results[side]) for side in results}
        print(
            f"cases {first + 1}-{first + len(chunk)} of {len(lines)} "
            f"({(time.monotonic() - started) / 60:.1f} min): model-handled logging turns "
            + ", ".join(
                f"{side} {f['turns']} p50 {f['p50'] or 0:.1f} s gen {f['generated'] or 0:.0f}"
                for side, f in so_far.items()
            ),
            flush=True,
        )
        if args.json_path:  # a run stopped at its time limit keeps what it measured
            Path(args.json_path).write_text(json.dumps(results, indent=1, default=str))

    title = (
        f"{args.model} {args.row}, {len(lines)} logging cases of {args.set_name} "
        f"(from {args.offset + 1}), interleaved in chunks of {args.chunk}"
    )
    show_all(results, title, sides["before"][0][:10], sides["after"][0][:10])
    if args.json_path:
        Path(args.json_path).write_text(json.dumps(results, indent=1, default=str))
        print(f"wrote {args.json_path}")


if __name__ == "__main__":
    main()
