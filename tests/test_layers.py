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
ORDER = ["chain", "rpc", "services", "presentation", "viewmodels", "views"]
DATA = {"resources"}  # bundled data, not code: every layer may read it
ALLOWED: dict[str, set[str]] = {
    layer: set(ORDER[: index + 1]) | DATA for index, layer in enumerate(ORDER)
} | {"devnet": {"chain", "devnet"} | DATA}
QT_FREE = {"chain", "rpc", "services", "presentation", "devnet"}


def imported_modules(path: Path, root: Path = PACKAGE.parent) -> list[str]:
    """Return every module name a file imports, absolute or relative to root."""
    gc.disable()  # a finalizer running mid-parse trips CPython 3.11's AST depth check
    try:
        tree = ast.parse(path.read_text(), filename=str(path))
    finally:
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
    pytest.param(
        "node",
        marks=pytest.mark.xfail(
            reason="reads the day's requests and quota through QSettings (issue 20 §6)", strict=True
        ),
    ),
    "devnet",
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


def test_rule_detects_an_upward_import(tmp_path: Path) -> None:
    """The checker itself sees a relative upward import (so the rules can fail)."""
    fake = tmp_path / "explorer" / "chain" / "probe.py"
    fake.parent.mkdir(parents=True)
    fake.write_text("from ..views import main_window\nimport PySide6.QtCore\n")
    names = imported_modules(fake, root=tmp_path)
    assert "explorer.views" in names
    assert "PySide6.QtCore" in names
