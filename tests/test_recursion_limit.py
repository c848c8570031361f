"""The app's processes keep Python's recursion limit (py-evm raises it; deep JSON would crash)."""

from __future__ import annotations

import os
import subprocess
import sys


def test_app_and_commands_keep_the_default_recursion_limit() -> None:
    """Importing the window and the command-line faces leaves the limit at its default."""
    code = (
        "import sys; before = sys.getrecursionlimit()\n"
        "import explorer.app.application, explorer.cli.rpc, explorer.cli.report\n"
        "import explorer.cli.logs\n"
        "print(before, sys.getrecursionlimit())\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        timeout=60,
        env={**os.environ, "QT_QPA_PLATFORM": "offscreen"},
    )
    before, after = done.stdout.split()
    assert before == after, done.stderr
