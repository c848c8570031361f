"""Sorting a table's rows by a column: a key per row, rows without one last, ties kept in order."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import total_ordering
from typing import Any, TypeVar

from PySide6.QtCore import Qt

T = TypeVar("T")
Key = Any  # a sort key: None when the row has no value in the column (yet)


@dataclass(frozen=True)
class SortOrder:
    """Which column the rows are sorted by, and which way (-1: as they came)."""

    column: int = -1
    descending: bool = True

    @classmethod
    def of(cls, column: int, order: Qt.SortOrder) -> SortOrder:
        """Return the order Qt asks for (a header click)."""
        return cls(column, order == Qt.SortOrder.DescendingOrder)

    @property
    def qt(self) -> Qt.SortOrder:
        """Return the order as Qt names it (for the header's indicator)."""
        return Qt.SortOrder.DescendingOrder if self.descending else Qt.SortOrder.AscendingOrder


@total_ordering
class Reversed:
    """A key that sorts the other way (descending in an ascending list, for bisect)."""

    __slots__ = ("key",)

    def __init__(self, key: Key) -> None:
        self.key = key

    def __eq__(self, other: object) -> bool:
        """Tell whether the keys are equal."""
        return isinstance(other, Reversed) and bool(self.key == other.key)

    def __lt__(self, other: Reversed) -> bool:
        """Order the other way."""
        return bool(other.key < self.key)

    def __hash__(self) -> int:
        """Hash as the key does."""
        return hash(self.key)


def sorted_rows(rows: Sequence[T], key: Callable[[T], Key], descending: bool) -> list[T]:
    """Return rows sorted by key; rows whose key is None go last, in their order."""
    keyed = [(key(row), row) for row in rows]
    known = [pair for pair in keyed if pair[0] is not None]
    known.sort(key=lambda pair: pair[0], reverse=descending)  # stable either way
    return [row for _, row in known] + [row for value, row in keyed if value is None]


def text_key(text: str) -> Key:
    """Return a key that sorts text as people read it (case-insensitive; empty: no value)."""
    return text.casefold() if text else None
