"""Files the app writes: private (0600 in a 0700 folder), and written whole or not at all."""

from __future__ import annotations

import contextlib
import io
import os
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import TextIO, cast

PRIVATE_FILE = 0o600  # only their owner reads what the app writes: keys, logs, what was seen
PRIVATE_DIRECTORY = 0o700


def private_directory(path: Path) -> Path:
    """Create the app's own folder 0700 (its missing parents too), or make it 0700; return it.

    Never for a folder the user chose: only the app's own (log, data, cache) are tightened.
    """
    path.mkdir(mode=PRIVATE_DIRECTORY, parents=True, exist_ok=True)
    if os.name == "posix":
        os.chmod(path, PRIVATE_DIRECTORY)
    return path


def create_private(path: Path) -> Path:
    """Create the file 0600 when missing, or make it 0600 (before a library opens it)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT, PRIVATE_FILE)
    os.close(descriptor)
    if os.name == "posix":
        os.chmod(path, PRIVATE_FILE)
    return path


def open_private(
    path: Path, mode: str = "w", *, newline: str | None = None, exclusive: bool = False
) -> io.TextIOWrapper:
    """Open a UTF-8 text file for writing ("w") or appending ("a"), created 0600 (blocking IO)."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if mode == "a" else os.O_TRUNC)
    if exclusive:
        flags |= os.O_EXCL
    descriptor = os.open(path, flags, PRIVATE_FILE)
    if os.name == "posix":
        os.fchmod(descriptor, PRIVATE_FILE)
    return cast(io.TextIOWrapper, open(descriptor, mode, encoding="utf-8", newline=newline))


def write_private(path: Path, text: str) -> None:
    """Write text to a file created 0600 (blocking IO)."""
    with open_private(path) as file:
        file.write(text)


def partial_name(path: Path) -> Path:
    """Return a fresh hidden name beside path for its content while it is being written."""
    return path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.part")


@contextlib.contextmanager
def replaced_whole(path: Path, *, newline: str | None = None) -> Iterator[TextIO]:
    """Open a new private UTF-8 text file beside path (blocking IO).

    When the block ends it replaces path; when the block raises (or is cancelled) it is removed
    and path left as it was.
    """
    partial = partial_name(path)
    try:
        with open_private(partial, newline=newline, exclusive=True) as file:
            yield file
        partial.replace(path)
    except BaseException:
        partial.unlink(missing_ok=True)
        raise
