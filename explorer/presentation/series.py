"""What a small chart shows: a title, values (None: a gap), and per value a note and a link."""

from __future__ import annotations

from dataclasses import dataclass

from explorer.services.routes import Route


@dataclass(frozen=True)
class Series:
    """One chart: a title, values over an x range (None: a gap), or a note when empty.

    `points` (optional) is the hover text of each value and `links` where a click on it
    leads (e.g. the block a value belongs to).
    """

    title: str
    empty_text: str
    values: tuple[float | None, ...] = ()
    first: str = ""
    last: str = ""
    points: tuple[str, ...] = ()
    links: tuple[Route | None, ...] = ()

    def point(self, index: int) -> str:
        """Return the hover text of a value ('' when there is none)."""
        return self.points[index] if 0 <= index < len(self.points) else ""

    def link(self, index: int) -> Route | None:
        """Return where a click on a value leads (None: nowhere)."""
        return self.links[index] if 0 <= index < len(self.links) else None
