"""Every method of the service is used by the window (a typed wrapper called outside rpc/)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from explorer.rpc.methods import METHODS

PACKAGE = Path(__file__).resolve().parents[1] / "explorer"
WINDOW_LAYERS = ("services", "presentation", "viewmodels", "views")


def wrapper_names() -> dict[str, str]:
    """Return each method's typed wrapper in rpc/wrappers.py (method -> function name)."""
    tree = ast.parse((PACKAGE / "rpc" / "wrappers.py").read_text())
    names: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.AsyncFunctionDef):
            for constant in ast.walk(node):
                if isinstance(constant, ast.Constant) and constant.value in METHODS:
                    names[str(constant.value)] = node.name
    return names


def called(name: str) -> bool:
    """Tell whether `.name(` is called in the window's layers or the chain check's probe."""
    pattern = re.compile(rf"\.{name}\(")
    files = [path for layer in WINDOW_LAYERS for path in (PACKAGE / layer).rglob("*.py")]
    files.append(PACKAGE / "rpc" / "client.py")  # the probe: eth_chainId, net_version, client
    return any(pattern.search(path.read_text()) for path in files)


def test_every_method_is_used_by_the_window() -> None:
    """All 27 methods: eth_getLogs sent raw, the others through their typed wrappers."""
    names = wrapper_names()
    assert set(names) == set(METHODS)
    unused = {method for method, name in names.items() if not called(name)}
    logs = "eth_getLogs"  # services/logscan.py sends it raw, to parse the logs lazily
    assert f'"{logs}"' in (PACKAGE / "services" / "logscan.py").read_text()
    assert unused - {logs} == set()
