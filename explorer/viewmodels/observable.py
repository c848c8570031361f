"""Typed Qt properties for view models: read through Python, notified by an event signal."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, TypeVar, cast

from PySide6.QtCore import Property, Signal

T = TypeVar("T")


def qproperty(getter: Callable[[Any], T], notify: Signal) -> T:
    """Declare a read-only Qt property typed as the getter's value for type checkers."""
    return cast(T, Property(object, getter, notify=notify))
