"""What every screenshot pass is handed (the tour's helpers, as one) and the shape it has."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any, NamedTuple, Protocol

from PySide6.QtWidgets import QWidget

from explorer.services.routes import Route
from explorer.views.main_window import MainWindow

Shoot = Callable[[MainWindow, Route, Path], Awaitable[None]]  # open a route, save it as a PNG
Settle = Callable[[QWidget], Awaitable[None]]  # let a widget's layouts and paints finish


class Wait(Protocol):
    """Wait on the running loop until a condition holds; False when the timeout passed."""

    def __call__(self, condition: Callable[[], bool], timeout: float = ...) -> Awaitable[bool]:
        """Return whether condition held within timeout seconds."""
        ...


class Helpers(NamedTuple):
    """The tour's ways to shoot a route, let paints finish, and wait for a condition."""

    shoot: Shoot
    settle: Settle
    wait_for: Wait


class ScreenPass(Protocol):
    """One set of screens shot in one palette (mode); returns the files it wrote."""

    def __call__(
        self,
        window: MainWindow,
        manifest: dict[str, Any],
        directory: Path,
        mode: str,
        helpers: Helpers,
    ) -> Awaitable[list[Path]]:
        """Shoot the pass's screens of the devnet described by manifest into directory."""
        ...
