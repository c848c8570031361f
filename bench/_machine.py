"""A busy machine for the benches: processes spinning on the cores beside what is timed.

Imported by the benches (beside them on sys.path), never run.
"""

from __future__ import annotations

import contextlib
import subprocess
import sys
from collections.abc import Iterator

SPIN = "import time\nend = time.time() + {seconds}\nwhile time.time() < end: pass"


@contextlib.contextmanager
def busy_machine(processes: int, seconds: float) -> Iterator[None]:
    """Keep processes spinning (normal priority) on the machine's cores meanwhile."""
    spinners = [
        subprocess.Popen([sys.executable, "-c", SPIN.format(seconds=seconds)])
        for _ in range(processes)
    ]
    try:
        yield
    finally:
        for spinner in spinners:
            spinner.kill()
            spinner.wait()
