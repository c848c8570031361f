"""The saved-data layer's shape: no circle among its modules, a small public face."""

from __future__ import annotations

import ast
import graphlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SAVED = ROOT / "explorer" / "saved"
#: What the rooms above may use: the session's saved data and its records (cache), where it
#: lives (directory), what may be kept (rules), and the one way to keep a SQLite store
#: (sqlite_file, sqlite_worker, files) with the stores that live here (seen, usage).
PUBLIC = {"cache", "directory", "rules", "files", "sqlite_file", "sqlite_worker", "seen", "usage"}


def imports_of(path: Path) -> list[tuple[str, bool]]:
    """Return the explorer modules a file imports, each with whether only for type checking."""
    found: list[tuple[str, bool]] = []
    tree = ast.parse(path.read_text())

    def visit(node: ast.AST, typing_only: bool) -> None:
        for child in ast.iter_child_nodes(node):
            guarded = typing_only or (
                isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test)
            )
            if isinstance(child, ast.ImportFrom) and child.module:
                names = [child.module] + [f"{child.module}.{a.name}" for a in child.names]
                found.extend((n, guarded) for n in names if n.startswith("explorer."))
            elif isinstance(child, ast.Import):
                found.extend(
                    (a.name, guarded) for a in child.names if a.name.startswith("explorer.")
                )
            visit(child, guarded)

    visit(tree, False)
    return found


def saved_module(name: str) -> str | None:
    """Return the module of explorer.saved a dotted name is or lies in, else None."""
    parts = name.split(".")
    if parts[:2] != ["explorer", "saved"] or len(parts) < 3:
        return None
    return parts[2] if (SAVED / f"{parts[2]}.py").is_file() else None


def test_the_modules_of_the_layer_import_one_another_in_one_direction_only() -> None:
    """No circle, and no import hidden from the circle's check under TYPE_CHECKING."""
    graph: dict[str, set[str]] = {}
    hidden = []
    for path in SAVED.glob("*.py"):
        for name, typing_only in imports_of(path):
            module = saved_module(name)
            if module is not None and module != path.stem:
                graph.setdefault(path.stem, set()).add(module)
                if typing_only:
                    hidden.append(f"{path.stem} imports {module} for type checking")
    assert hidden == []
    graphlib.TopologicalSorter(graph).prepare()  # CycleError names the circle


def test_the_rooms_above_use_only_the_public_face() -> None:
    """Services, view models and the rest import the public modules, never the insides."""
    inside = []
    for path in (ROOT / "explorer").rglob("*.py"):
        if SAVED in path.parents:
            continue
        for name, _typing_only in imports_of(path):
            module = saved_module(name)
            if module is not None and module not in PUBLIC:
                inside.append(f"{path.relative_to(ROOT)} imports explorer.saved.{module}")
    assert inside == []


def test_the_checks_see_a_circle_and_an_inside_import(tmp_path: Path) -> None:
    """The parser finds imports under TYPE_CHECKING and inside functions."""
    source = tmp_path / "m.py"
    source.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from explorer.saved.store import ChainStore\n"
        "def f() -> None:\n    from explorer.saved import sql\n"
    )
    found = {(saved_module(name), guarded) for name, guarded in imports_of(source)}
    assert ("store", True) in found
    assert ("sql", False) in found
