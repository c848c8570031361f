"""What the app says is for its users: no section numbers of our own documents on screen."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
#: Where the texts people read are written (the devnet's are a node's answers, read as such).
SPEAKING = ("chain", "rpc", "services", "presentation", "viewmodels", "views", "cli")
JARGON = ("§", "service rule")
SPLIT_PERCENT = re.compile(r"[\d}] %(?![sdrx(])")  # "80 %" wraps over two lines: "80%"


def spoken_strings(path: Path) -> list[tuple[int, str]]:
    """Return (line, text) of a module's string literals and f-strings, docstrings left out."""
    tree = ast.parse(path.read_text())
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    literals = [
        (node.lineno, node.value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Constant)
        and isinstance(node.value, str)
        and id(node) not in docstrings
    ]
    formatted = [
        (node.lineno, ast.unparse(node))
        for node in ast.walk(tree)
        if isinstance(node, ast.JoinedStr)
    ]
    return literals + formatted


def said_where(matches: Callable[[str], bool]) -> list[str]:
    """Return `path:line: text` of every text the app shows that matches."""
    return [
        f"{path.relative_to(REPO)}:{line}: {text!r}"
        for layer in SPEAKING
        for path in sorted((REPO / "explorer" / layer).rglob("*.py"))
        for line, text in spoken_strings(path)
        if matches(text)
    ]


def test_no_section_numbers_or_rules_of_our_documents_on_screen() -> None:
    """`service rule §4.3.1` was on the Contract tab; such references belong in comments."""
    assert said_where(lambda text: any(word in text for word in JARGON)) == []


def test_the_check_sees_a_string_but_not_a_docstring(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text('"""About §1."""\n\nTEXT = "see §2"\n')
    assert spoken_strings(source) == [(3, "see §2")]


def test_a_percent_sign_never_wraps_away_from_its_number() -> None:
    """Settings › Saved data wrapped "80 %" over two lines; "4.9%" elsewhere had no space."""
    assert said_where(lambda text: SPLIT_PERCENT.search(text) is not None) == []


def test_the_percent_check_sees_a_literal_and_an_f_string(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text(
        'def f(n):\n    """At 80 % of it."""\n    return "at 80 %", f"pay {n} % more"\n'
    )
    found = [line for line, text in spoken_strings(source) if SPLIT_PERCENT.search(text)]
    assert found == [3, 3]
