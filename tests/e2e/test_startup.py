"""Paint first: what the window process has imported when its first frame is painted."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

EXPLORER = [sys.executable, "-m", "explorer"]
#: Heavy libraries that must load after the first frame (chain libraries, HTTP stack, py-evm).
LATER = ("eth_abi", "eth_utils", "eth", "pydantic", "aiohttp", "httpx", "qasync", "rlp")


def run_smoke_test(tmp_path: Path) -> tuple[str, set[str]]:
    """Run `explorer --smoke-test`; return its output and the modules loaded at the first frame."""
    listing = tmp_path / "modules.txt"
    env = {
        **os.environ,
        "QT_QPA_PLATFORM": "offscreen",
        "XDG_CONFIG_HOME": str(tmp_path / "config"),
    }
    command = [*EXPLORER, "--smoke-test", "--first-frame-modules", str(listing)]
    command += ["--log-file", str(tmp_path / "log" / "explorer.log")]
    run = subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, check=True)
    return run.stdout, set(listing.read_text().split())


def test_the_first_frame_comes_before_the_chain_libraries_and_the_http_stack(
    tmp_path: Path,
) -> None:
    output, modules = run_smoke_test(tmp_path)
    assert "first frame painted" in output
    assert "window 'Rootstock Explorer' opened" in output
    assert "PySide6.QtWidgets" in modules
    early = sorted(name for name in modules if name.split(".")[0] in LATER)
    assert early == []


def test_the_window_process_never_imports_the_devnet_server() -> None:
    probe = (
        "import sys, explorer.app.application\n"
        "print(sorted(m for m in sys.modules if 'devnet' in m))"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    listed = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert "explorer.devnet.process" in listed  # the window starts the devnet as a child
    assert "explorer.devnet.server" not in listed
    assert "explorer.devnet.node" not in listed


#: What Home, the first screen, does without: py-evm and Rootstock's VM (History, the Inside
#: tab), code analysis and the contract tab's machinery, the traces, the pages other than Home
#: (their modules load when such a page first opens), the screenshot tour. (The ABI codec stays:
#: Home reads token units with it.)
NOT_FOR_HOME = (
    "eth",
    "py_ecc",
    "explorer.vm",
    "evmole",
    "explorer.presentation.contract_facts",
    "explorer.services.trace",
    "explorer.viewmodels.page",
    "explorer.viewmodels.address.page",
    "explorer.views.address.page",
    "explorer.viewmodels.tx_page",
    "explorer.tour.screens",
)


def test_the_window_imports_only_what_home_needs() -> None:
    probe = (
        "import sys, explorer.app.run\n"
        f"print(sorted(m for m in {NOT_FOR_HOME!r} if m in sys.modules))"
    )
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    listed = subprocess.run(
        [sys.executable, "-c", probe], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert listed.strip() == "[]"


WARM_UP_PROBE = """
import sys, threading
importers = {}
class Spy:
    def find_spec(self, name, path=None, target=None):
        if name == "eth.vm.forks":
            importers[name] = threading.current_thread().name
sys.meta_path.insert(0, Spy())
from PySide6.QtCore import QTimer
from PySide6.QtWidgets import QApplication
from explorer.viewmodels.shell import ShellViewModel
from explorer.views.main_window import MainWindow
from explorer.views.warm_pages import PAGE_MODULES, pages_warmed
app = QApplication([])
window = MainWindow(ShellViewModel())
before = sorted(name for name in ("eth.vm.forks", *PAGE_MODULES) if name in sys.modules)
limit = sys.getrecursionlimit()  # py-evm raises it when imported: the app keeps it
window.shell.poller.head_changed.emit(5)  # the first head: the window is up
ticks = QTimer(interval=50)
ticks.timeout.connect(lambda: pages_warmed.is_set() and app.quit())
ticks.start()
QTimer.singleShot(60_000, app.quit)  # never warmed: the test fails after a minute
app.exec()
missing = [name for name in PAGE_MODULES if name not in sys.modules]
print(before, pages_warmed.is_set(), missing, importers, sys.getrecursionlimit() == limit)
"""


def test_the_pages_modules_are_imported_ahead_py_evm_off_the_gui_thread() -> None:
    """Once the first head is known, the pages' modules are imported before any page opens.

    py-evm (about a second) on a worker thread, the app's own modules on the GUI thread one
    per tick: the first transaction page froze the window while it imported them. The
    recursion limit stays the default (py-evm raises it: a worker crashed on deep RLP).
    """
    env = {**os.environ, "QT_QPA_PLATFORM": "offscreen"}
    printed = subprocess.run(
        [sys.executable, "-c", WARM_UP_PROBE],
        env=env,
        capture_output=True,
        text=True,
        check=True,
        timeout=280,
    ).stdout
    assert printed.strip() == "[] True [] {'eth.vm.forks': 'warm-up'} True"
