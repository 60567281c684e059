"""How many regular expressions in an app's code hold a word list: an alternation of three or more
words written into the pattern itself ("(?:breakfast|lunch|dinner)"), rather than built from a
domain's vocabulary. Issue 33 asks for at most 10 in chat.

    .venv/bin/python bench/word_regexes.py [APP ...] [--list]

Reads the code as text (nothing is imported): every string literal given to re.compile, re.search,
re.match, re.fullmatch, re.sub, re.subn, re.findall, re.finditer or re.split, with its implicit
concatenations and the literal parts of f-strings, is one regular expression.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CALLS = {"compile", "search", "match", "fullmatch", "sub", "subn", "findall", "finditer", "split"}
# A word of a list: letters (an apostrophe, a hyphen or a space between them), optionally with
# the small regex marks people write into words ("s?", "\s+", "(?:es)?").
_MARKS = re.compile(r"\\s[+*?]?|\\b|\\-|\\'|\(\?:|\)\??|[?+*]|\[\w\s'-\]\??|\\.")
_WORD = re.compile(r"[a-z][a-z' -]*", re.I)


def _literal(node) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.JoinedStr):
        return "".join(v.value if isinstance(v, ast.Constant) else "\x00" for v in node.values)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left, right = _literal(node.left), _literal(node.right)
        if left is not None or right is not None:
            return (left or "\x00") + (right or "\x00")
    return None


def _alternatives(pattern: str):
    """Each run of alternatives at one depth of the pattern, as a list of strings."""
    stack: list[list[str]] = [[""]]
    i = 0
    while i < len(pattern):
        ch = pattern[i]
        if ch == "\\" and i + 1 < len(pattern):
            stack[-1][-1] += pattern[i : i + 2]
            i += 2
            continue
        if ch == "[":  # a character class is one token
            end = pattern.find("]", i + 2)
            end = len(pattern) - 1 if end < 0 else end
            stack[-1][-1] += pattern[i : end + 1]
            i = end + 1
            continue
        if ch == "(":
            stack.append([""])
            if pattern.startswith("(?", i):
                close = i + 2
                while close < len(pattern) and pattern[close] not in ":)":
                    close += 1
                i = close + 1 if pattern[close : close + 1] == ":" else i + 1
                continue
        elif ch == ")" and len(stack) > 1:
            group = stack.pop()
            yield group
            stack[-1][-1] += "(" + "|".join(group) + ")"
        elif ch == "|":
            stack[-1].append("")
        else:
            stack[-1][-1] += ch
        i += 1
    for group in stack:
        yield group


def holds_word_list(pattern: str) -> bool:
    for group in _alternatives(pattern):
        words = [_MARKS.sub("", alt).strip() for alt in group]
        if sum(1 for w in words if _WORD.fullmatch(w) and len(w) > 1) >= 3:
            return True
    return False


def _strings(tree):
    """Every maximal string expression of a module but its docstrings: a constant (implicit
    concatenations are one), an f-string, or strings joined with +."""
    docs = set()
    for node in ast.walk(tree):
        body = getattr(node, "body", None)
        if isinstance(body, list) and body and isinstance(body[0], ast.Expr):
            docs.add(id(body[0].value))
    inner = set()
    for node in ast.walk(tree):
        if id(node) in docs or id(node) in inner:
            continue
        text = _literal(node)
        if text is None:
            continue
        for child in ast.walk(node):
            inner.add(id(child))
        yield node, text


def word_regexes(app: str) -> tuple[list[tuple[str, int, str]], int]:
    """The patterns of an app that hold a word list, and how many patterns it has (a string
    with a regex's marks: an alternation, a word boundary or a group)."""
    found, total = [], 0
    for path in sorted((ROOT / app).rglob("*.py")):
        if "migrations" in path.parts:
            continue
        tree = ast.parse(path.read_text(), filename=str(path))
        for node, text in _strings(tree):
            if not re.search(r"\\b|\(\?|\||\\s|\\d", text):
                continue
            total += 1
            if "|" in text and holds_word_list(text):
                found.append((str(path.relative_to(ROOT)), node.lineno, text))
    return found, total


def main(argv: list[str]) -> None:
    show = "--list" in argv
    apps = [a for a in argv if not a.startswith("--")] or ["chat"]
    for app in apps:
        found, total = word_regexes(app)
        by_file: dict[str, int] = {}
        for path, _, _ in found:
            by_file[path] = by_file.get(path, 0) + 1
        print(f"{app}: {len(found)} of {total} regular expressions hold a list of 3+ words")
        for path, count in sorted(by_file.items(), key=lambda kv: -kv[1]):
            print(f"  {count:3d}  {path}")
        if show:
            for path, line, pattern in found:
                print(f"{path}:{line}: {pattern[:110]!r}")


if __name__ == "__main__":
    main(sys.argv[1:])
