"""The import rules of docs/architecture.md: layers import downwards, no Qt below view models.

Ruff checks the same rules as code is written: each layer's ruff.toml bans the layers above it
and Qt (TID251 banned-api), and relative imports are banned everywhere (TID252). This test reads
every import itself, relative ones resolved, so a rule dropped from a ruff.toml still fails here.
"""

from __future__ import annotations

import ast
import gc
import subprocess
import sys
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[1] / "explorer"
#: The layers, bottom up: each may import itself and the layers below it.
ORDER = ["chain", "rpc", "saved", "services", "presentation", "viewmodels", "views"]
DATA = {"resources", ""}  # bundled data and the package root (its __version__): every room
#: Rootstock's VM (py-evm under rskj's rules) sits beside chain: the devnet runs on it and the
#: services replay transactions with it; nothing between chain and services needs it.
VM = "vm"
VM_USERS = {"services", "presentation", "viewmodels", "views"}
BELOW_VIEWS = set(ORDER) | {VM}
#: Every room of explorer/ and the rooms it may import. Above the views: diagnostics (the log
#: and crash reports), settings (over QSettings), the screenshot tour, and the composition roots
#: of the window (app) and of the terminal (cli); the devnet is a program of its own.
ALLOWED: dict[str, set[str]] = (
    {
        layer: set(ORDER[: index + 1]) | DATA | ({VM} if layer in VM_USERS else set())
        for index, layer in enumerate(ORDER)
    }
    | {VM: {"chain", VM} | DATA}
    | {"devnet": {"chain", VM, "devnet"} | DATA}
    | {"diagnostics": BELOW_VIEWS | {"diagnostics"} | DATA}
    | {"settings": {"chain", "rpc", "saved", "services", "settings"} | DATA}
    | {"tour": BELOW_VIEWS | {"diagnostics", "settings", "tour"} | DATA}
    | {"app": BELOW_VIEWS | {"diagnostics", "settings", "tour", "devnet", "app"} | DATA}
    | {"cli": {"chain", VM, "rpc", "saved", "services", "presentation", "devnet", "cli"} | DATA}
)
QT_FREE = {"chain", VM, "rpc", "saved", "services", "presentation", "devnet", "cli"}
#: Modules that may live at explorer/'s top level: the package and the command line's entry.
TOP_LEVEL = {"__init__.py", "__main__.py"}


def imported_modules(path: Path, root: Path = PACKAGE.parent) -> list[str]:
    """Return every module name a file imports, absolute or relative to root."""
    collecting = gc.isenabled()  # off in the test session: Qt garbage dies on the main thread
    gc.disable()  # a finalizer running mid-parse trips CPython 3.11's AST depth check
    try:
        tree = ast.parse(path.read_text(), filename=str(path))
    finally:
        if collecting:
            gc.enable()
    names: list[str] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names.extend(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                package = path.relative_to(root).parent.parts
                base = ".".join(package[: len(package) - node.level + 1])
                names.append(f"{base}.{node.module}" if node.module else base)
            elif node.module:
                names.append(node.module)
    return names


def layer_files(layer: str) -> list[Path]:
    """Return the Python files of one layer."""
    return sorted((PACKAGE / layer).rglob("*.py"))


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_only_layers_below(layer: str) -> None:
    """A layer imports explorer modules only from itself and the layers below it."""
    offences = []
    for path in layer_files(layer):
        for name in imported_modules(path):
            parts = name.split(".")
            if parts[0] != "explorer":
                continue
            target = parts[1] if len(parts) > 1 else ""
            if target not in ALLOWED[layer]:
                offences.append(f"{path.relative_to(PACKAGE)} imports {name}")
    assert offences == []


@pytest.mark.parametrize("layer", sorted(QT_FREE))
def test_no_qt_below_view_models(layer: str) -> None:
    """chain, rpc, services, presentation and devnet never import Qt."""
    offences = [
        f"{path.relative_to(PACKAGE)} imports {name}"
        for path in layer_files(layer)
        for name in imported_modules(path)
        if name.split(".")[0] in {"PySide6", "shiboken6", "qasync"}
    ]
    assert offences == []


def test_view_models_use_no_widgets() -> None:
    """View models may use QtCore but never QtWidgets or QtGui widgets."""
    offences = [
        f"{path.relative_to(PACKAGE)} imports {name}"
        for path in layer_files("viewmodels")
        for name in imported_modules(path)
        if name.startswith(("PySide6.QtWidgets", "explorer.views"))
    ]
    assert offences == []


#: The command-line faces that must start without Qt: the terminal shows the window's facts.
QT_FREE_FACES = (
    "rpc",
    "report",
    "send",
    "logs",
    "history",
    "node",
    "devnet",
    "trace",
)


@pytest.mark.parametrize("face", QT_FREE_FACES)
def test_command_line_faces_load_no_qt(face: str) -> None:
    """Importing a command-line face and asking its --help loads no Qt binding or qasync."""
    probe = (
        "import sys, contextlib, io\n"
        f"import explorer.cli.{face}\n"
        "from explorer.__main__ import main\n"
        "with contextlib.suppress(SystemExit), contextlib.redirect_stdout(io.StringIO()):\n"
        f"    main(['{face}', '--help'])\n"
        "qt = ('PySide6', 'shiboken6', 'qasync')\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] in qt))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "[]"


#: The faces that never replay a transaction: they must not load py-evm (it costs start-up).
NO_VM_FACES = tuple(face for face in QT_FREE_FACES if face not in ("trace", "devnet"))


@pytest.mark.parametrize("face", NO_VM_FACES)
def test_faces_that_never_replay_load_no_vm(face: str) -> None:
    """Only `explorer trace` (and the devnet) load Rootstock's VM and py-evm under it."""
    probe = (
        f"import sys\nimport explorer.cli.{face}\n"
        "print(sorted(m for m in sys.modules if m == 'eth.vm' or m.startswith('explorer.vm')))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", probe], capture_output=True, text=True, timeout=120, check=True
    )
    assert done.stdout.strip().splitlines()[-1] == "[]"


def test_rule_detects_an_upward_import(tmp_path: Path) -> None:
    """The checker itself sees a relative upward import (so the rules can fail)."""
    fake = tmp_path / "explorer" / "chain" / "probe.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("from ..views import main_window\nimport PySide6.QtCore\n")
    names = imported_modules(fake, root=tmp_path)
    assert "explorer.views" in names
    assert "PySide6.QtCore" in names


#: Qt modules a room may not import, beyond the Qt-free rooms' ban on every binding.
QT_BANS = {"viewmodels": ["PySide6.QtWidgets"], "settings": ["PySide6.QtWidgets"]}


def ruff_rules(room: str) -> str:
    """Return the ruff.toml that makes ruff check a room's import rules as code is written."""
    lines = [
        f'# The import rules of explorer/{room} (docs/architecture.md, "Layers"), checked by ruff',
        "# as you type. Written by `python -m tests.test_layers --write-ruff` from ALLOWED in",
        "# tests/test_layers.py, which checks the same rules (relative imports included).",
        'extend = "../../pyproject.toml"',
        "",
        "[lint.flake8-tidy-imports.banned-api]",
    ]
    for other in sorted(set(ALLOWED) - ALLOWED[room]):
        lines.append(f'"explorer.{other}".msg = "{room} never imports {other}"')
    lines.append('"explorer.__main__".msg = "only the command line\'s entry is __main__"')
    qt = ["PySide6", "shiboken6", "qasync"] if room in QT_FREE else QT_BANS.get(room, [])
    lines.extend(f'"{name}".msg = "{room} imports no {name}"' for name in qt)
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("room", sorted(ALLOWED))
def test_each_room_s_ruff_rules_match_the_layer_rules(room: str) -> None:
    """Ruff bans in each room exactly what this test forbids (regenerate with --write-ruff)."""
    assert (PACKAGE / room / "ruff.toml").read_text() == ruff_rules(room)


def test_explorer_holds_rooms_not_loose_modules() -> None:
    """Every module of explorer/ lives in a room the rules know, beside __main__ and __init__."""
    loose = {path.name for path in PACKAGE.glob("*.py")} - TOP_LEVEL
    rooms = {path.parent.relative_to(PACKAGE).parts[0] for path in PACKAGE.rglob("*/*.py")}
    assert (loose, rooms - set(ALLOWED)) == (set(), set())


def room_graph() -> dict[str, set[str]]:
    """Return which rooms each room imports (every import, inside functions too)."""
    graph: dict[str, set[str]] = {room: set() for room in ALLOWED}
    for room in ALLOWED:
        for path in layer_files(room):
            for name in imported_modules(path):
                parts = name.split(".")
                if parts[0] == "explorer" and len(parts) > 1 and parts[1] in ALLOWED:
                    graph[room].add(parts[1])
        graph[room].discard(room)
    return graph


def cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Return the import cycles between rooms, each as the path that closes it."""
    found: list[list[str]] = []

    def visit(room: str, path: list[str]) -> None:
        for target in sorted(graph[room]):
            if target in path:
                found.append([*path[path.index(target) :], target])
            elif target > path[0]:  # each cycle once, from its smallest room
                visit(target, [*path, target])

    for start in sorted(graph):
        visit(start, [start])
    return [cycle for cycle in found if cycle[0] == min(cycle)]


def test_no_cycle_between_rooms() -> None:
    """No two rooms import each other, directly or around a circle."""
    assert cycles(room_graph()) == []


def test_the_cycle_check_sees_a_cycle() -> None:
    """The cycle finder reports a circle of three rooms (so the check can fail)."""
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == [["a", "b", "c", "a"]]


def draw() -> str:
    """Return the room graph as Graphviz text (`python -m tests.test_layers --draw`)."""
    edges = [f'  "{room}" -> "{target}";' for room, targets in sorted(room_graph().items())
             for target in sorted(targets)]  # fmt: skip
    return "digraph rooms {\n" + "\n".join(edges) + "\n}\n"


if __name__ == "__main__":
    if "--write-ruff" in sys.argv:
        for name in sorted(ALLOWED):
            (PACKAGE / name / "ruff.toml").write_text(ruff_rules(name))
    else:
        print(draw(), end="")
