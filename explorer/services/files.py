"""Files written whole or not at all: written under a temporary name beside, renamed at the end."""

from __future__ import annotations

import contextlib
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO


def partial_name(path: Path) -> Path:
    """Return a fresh hidden name beside path for its content while it is being written."""
    return path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.part")


@contextlib.contextmanager
def replaced_whole(path: Path, *, newline: str | None = None) -> Iterator[TextIO]:
    """Open a new UTF-8 text file beside path (blocking IO).

    When the block ends it replaces path; when the block raises (or is cancelled) it is removed
    and path left as it was.
    """
    partial = partial_name(path)
    try:
        with partial.open("x", encoding="utf-8", newline=newline) as file:
            yield file
        partial.replace(path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
