"""CI proves the README: `.ci/run` runs the README's make targets and nothing of its own, so a
green CI means `make test` works on a fresh machine as the README says."""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
# What .ci/run may do besides make: shell set-up, timing, a clean virtualenv, a closing line.
HOUSEKEEPING = re.compile(
    r"^(set -euo pipefail|cd \"\$\(dirname \"\$0\"\)/\.\.\"|started=\$\(date \+%s\)|rm -rf \.venv"
    r"|echo \"CI finished in .*\")$"
)


def _commands() -> list[str]:
    lines = (ROOT / ".ci" / "run").read_text().splitlines()
    return [line.strip() for line in lines if line.strip() and not line.lstrip().startswith("#")]


def test_ci_runs_only_make_targets_with_no_install_or_start_step_of_its_own():
    commands = _commands()
    own = [c for c in commands if not c.startswith("make ") and not HOUSEKEEPING.match(c)]

    assert own == []
    assert [c for c in commands if c.startswith("make ")] == [
        "make lint",
        "make test",
        "make model-install",
        "make test-model",
    ]


def test_every_make_target_ci_calls_exists_and_make_test_sets_up_its_own_services():
    makefile = (ROOT / "Makefile").read_text()
    for command in _commands():
        if command.startswith("make "):
            assert re.search(rf"^{re.escape(command.split()[1])}:", makefile, re.M), command
    test_rule = re.search(r"^test: (.*)$", makefile, re.M).group(1).split()
    assert {"install", "services", "browser"} <= set(test_rule)
    readme = (ROOT / "README.md").read_text()
    assert "make test" in readme and "chromium" in readme
