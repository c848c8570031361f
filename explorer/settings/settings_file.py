"""The settings file at rest: only its owner may read it, and a damaged one is moved aside."""

from __future__ import annotations

import contextlib
import os
import stat
import time
from pathlib import Path

FILE_MODE = 0o600  # the file holds API keys: its owner only
DIRECTORY_MODE = 0o700


def is_file_path(name: str) -> bool:
    """Tell whether a QSettings file name is a file on disk (not the Windows registry)."""
    return os.path.isabs(name) and not name.startswith("\\")


def tighten(path: Path) -> list[str]:
    """Make path's directory 0700 and path 0600 (when they exist); say what was too open.

    POSIX only: elsewhere the file lives in the user's own profile and keeps its ACLs.
    """
    if os.name != "posix":
        return []
    loosened: list[str] = []
    for target, mode in ((path.parent, DIRECTORY_MODE), (path, FILE_MODE)):
        try:
            current = stat.S_IMODE(target.stat().st_mode)
        except FileNotFoundError:
            continue
        if current & ~mode:  # group or others may read, write or enter it
            os.chmod(target, mode)
            loosened.append(f"{target} was mode {current:o}, now {mode:o}")
        elif current != mode:
            os.chmod(target, mode)
    return loosened


def prepare(path: Path, damage: str = "") -> list[str]:
    """Get the settings file ready before it is read; return messages for the user.

    The directory is made 0700 and an empty file 0600 is created when there is none (Qt
    then keeps that mode whenever it rewrites the file). A file or directory that others
    could read is tightened, and said so. A damaged file (damage says how, when the caller
    found out) is moved aside.
    """
    notices: list[str] = []
    path.parent.mkdir(mode=DIRECTORY_MODE, parents=True, exist_ok=True)
    damage = damage or damaged(path)
    if damage:
        aside = move_aside(path)
        notices.append(
            f"The settings file was damaged ({damage}); it was moved aside to {aside} and the "
            "app starts with default settings."
        )
    loosened = tighten(path)
    if loosened:
        notices.append(
            "Your settings (API keys included) could be read by other users of this computer: "
            + "; ".join(loosened)
            + "."
        )
    if not path.exists():
        create_private(path)
    return notices


def damaged(path: Path) -> str:
    """Return why the file at path cannot be a settings file ('' when it may be one)."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return ""
    except OSError as error:
        return f"cannot be read: {error.strerror or error}"
    if b"\x00" in data:
        return "it holds binary data"
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return "it is not UTF-8 text"
    return ""


def move_aside(path: Path) -> Path:
    """Rename a damaged file next to itself (kept private: it may hold keys); return its name."""
    stamp = time.strftime("%Y%m%d-%H%M%S")
    aside = path.with_name(f"{path.name}.damaged-{stamp}")
    path.replace(aside)
    with contextlib.suppress(OSError):
        os.chmod(aside, FILE_MODE)
    return aside


def create_private(path: Path) -> None:
    """Create an empty file that only its owner can read and write."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, FILE_MODE)
    os.close(descriptor)
