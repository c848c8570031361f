"""Texts the app shows keep a number and its unit together: "80%", never "80 %" (it wraps)."""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "explorer"
SPLIT_PERCENT = re.compile(r"[\d}] %(?![sdrx(])")


def shown_strings(tree: ast.AST) -> Iterator[tuple[int, str]]:
    """Yield the string literals and f-strings of a module, docstrings left out."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            yield node.lineno, ast.unparse(node)
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and id(node) not in docstrings
        ):
            yield node.lineno, node.value


def split_percents(source: str) -> list[tuple[int, str]]:
    """Return the shown strings of a module's source that put a space before a percent sign."""
    return [
        (line, text)
        for line, text in shown_strings(ast.parse(source))
        if SPLIT_PERCENT.search(text)
    ]


def test_a_percent_sign_never_wraps_away_from_its_number() -> None:
    """Settings › Saved data wrapped "80 %" over two lines; "4.9%" elsewhere had no space."""
    found = [
        f"{path.relative_to(ROOT)}:{line}: {text}"
        for path in sorted(ROOT.rglob("*.py"))
        for line, text in split_percents(path.read_text(encoding="utf-8"))
    ]
    assert not found, "\n".join(found)


def test_the_check_sees_a_split_percent() -> None:
    """The scan finds both forms, a literal and an f-string, and passes docstrings."""
    source = 'def f(n):\n    """Warn at 80 % of it."""\n    return "at 80 %", f"pay {n} % more"\n'
    assert [line for line, _ in split_percents(source)] == [3, 3]
