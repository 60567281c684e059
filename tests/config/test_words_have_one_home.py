"""A domain's word lists live once, with their owner: a copy elsewhere drifts (the check-in
fields were once written out ten times). These read the app code as text, as a reviewer would."""

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
APPS = ("aiservices", "chat", "config", "diary", "exercise", "measurements", "nutrition", "sparky")
CHECKIN_FIELDS = {"weight", "neck", "waist", "hips", "steps"}


def literal_lists(words: set[str]):
    """Every tuple, list or set written in app code whose items are exactly these strings."""
    for app in APPS:
        for path in sorted((ROOT / app).rglob("*.py")):
            if "migrations" in path.parts:
                continue
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.Tuple | ast.List | ast.Set) and node.elts:
                    items = [e.value for e in node.elts if isinstance(e, ast.Constant)]
                    if len(items) == len(node.elts) and set(items) == words:
                        yield f"{path.relative_to(ROOT)}:{node.lineno}"


def test_the_check_in_fields_are_written_out_only_where_measurements_keeps_them():
    assert [p.split(":")[0] for p in literal_lists(CHECKIN_FIELDS)] == ["measurements/services.py"]
