"""Drop what only left-out binaries needed: the shared libraries that came in for them alone.

PyInstaller collects each plugin's libraries; when the spec leaves a plugin out, the libraries
it pulled in stay unless dropped too. Only libraries that the left-out binaries need (through
ELF NEEDED entries, transitively) and that no kept binary needs are dropped, so a library Qt
opens at run time by name is never dropped by mistake unless only a left-out plugin named it.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterable
from functools import cache
from pathlib import Path

Entry = tuple[str, str, str]  # PyInstaller's (destination, source, kind)


@cache
def needed(source: str) -> frozenset[str]:
    """Return the sonames an ELF file is linked against (none for other files)."""
    path = Path(source)
    if not path.is_file() or path.read_bytes()[:4] != b"\x7fELF":
        return frozenset()
    out = subprocess.run(["readelf", "-d", source], capture_output=True, text=True).stdout
    return frozenset(re.findall(r"\(NEEDED\).*\[(.+)\]", out))


def closure(starts: Iterable[Entry], by_name: dict[str, Entry]) -> set[str]:
    """Return the destination names of the starts and every bundled library they need."""
    seen: set[str] = set()
    stack = list(starts)
    while stack:
        entry = stack.pop()
        if entry[0] in seen:
            continue
        seen.add(entry[0])
        stack.extend(by_name[name] for name in needed(entry[1]) if name in by_name)
    return seen


def prune(kept: list[Entry], left_out: list[Entry]) -> tuple[list[Entry], list[str]]:
    """Return kept without the libraries only left-out binaries need, and the names dropped."""
    by_name = {Path(entry[0]).name: entry for entry in kept}
    wanted = closure([e for e in kept if not _plain_library(e)], by_name)
    only_theirs = closure(left_out, by_name) - wanted
    dropped = sorted(Path(name).name for name in only_theirs if name in {e[0] for e in kept})
    return [entry for entry in kept if entry[0] not in only_theirs], dropped


def _plain_library(entry: Entry) -> bool:
    """Tell a library collected as a dependency (top level of the bundle) from the rest."""
    name = entry[0].replace("\\", "/")
    return "/" not in name and Path(name).name.startswith("lib") and ".so" in name
