"""What one stored setting is: its name, typed default, description and bounds."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T", str, int, bool, tuple[str, ...])  # a tuple of strings is a stored list


@dataclass(frozen=True)
class Key(Generic[T]):
    """One stored setting: where it is kept, its typed default, what it is for, its bounds.

    The type is the default's. A number below `least` or above `most` is read and stored as
    that bound; a text outside `allowed` (when given) is refused: read as the default, and
    never stored.
    """

    name: str
    default: T
    description: str
    least: int | None = None
    most: int | None = None
    allowed: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        """Refuse a declaration whose default breaks its own bounds."""
        if self.bounded(self.default) != self.default:
            raise ValueError(f"{self.name}: the default {self.default!r} is out of its bounds")

    def bounded(self, value: T) -> T:
        """Return the value within the key's bounds; ValueError for a text it refuses."""
        if isinstance(value, str) and self.allowed and value not in self.allowed:
            raise ValueError(f"{self.name} is one of {', '.join(self.allowed)}, not {value!r}")
        if isinstance(value, int) and not isinstance(value, bool):
            if self.least is not None:
                value = max(value, self.least)
            if self.most is not None:
                value = min(value, self.most)
        return value
