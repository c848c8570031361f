"""A page as data: titled sections of labelled fields, rendered by the window and by `report`."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from explorer.services.routes import Route


class Kind(enum.Enum):
    """How a field's value is shown (and which display widget shows it)."""

    TEXT = "text"
    ADDRESS = "address"
    TX_HASH = "tx_hash"
    BLOCK = "block"
    HASH = "hash"
    AMOUNT = "amount"
    TIME = "time"
    HEX = "hex"
    STATUS = "status"
    BTC_TX = "btc_tx"  # a Bitcoin txid: copy, open in a Bitcoin explorer
    BTC_ADDRESS = "btc_address"
    BTC_BLOCK = "btc_block"


class Tone(enum.Enum):
    """The emphasis of a field (status colours)."""

    NORMAL = "normal"
    GOOD = "good"
    BAD = "bad"
    WAITING = "waiting"
    MUTED = "muted"


@dataclass(frozen=True)
class Field:
    """One labelled value: display text plus the raw value a widget or JSON export needs."""

    label: str
    text: str
    kind: Kind = Kind.TEXT
    value: Any = None
    tooltip: str = ""
    tone: Tone = Tone.NORMAL
    link: Route | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the field as JSON-ready data."""
        data: dict[str, Any] = {"label": self.label, "text": self.text, "kind": self.kind.value}
        if self.value is not None:
            data["value"] = (
                self.value if not isinstance(self.value, bytes) else "0x" + self.value.hex()
            )
        if self.tone is not Tone.NORMAL:
            data["tone"] = self.tone.value
        if self.link:
            data["link"] = str(self.link)
        return data


@dataclass(frozen=True)
class Section:
    """A titled group of fields."""

    title: str
    fields: tuple[Field, ...] = field(default_factory=tuple)
    note: str = ""

    def to_json(self) -> dict[str, Any]:
        """Return the section as JSON-ready data."""
        data: dict[str, Any] = {"title": self.title, "fields": [f.to_json() for f in self.fields]}
        if self.note:
            data["note"] = self.note
        return data


@dataclass(frozen=True)
class Document:
    """Everything a page shows: a headline, sections, and the node's raw JSON."""

    title: str
    headline: Field
    sections: tuple[Section, ...]
    raw: dict[str, Any] = field(default_factory=dict)
    chain_id: int | None = None

    def to_json(self) -> dict[str, Any]:
        """Return the document as JSON-ready data (what `explorer report --format json` prints)."""
        return {
            "title": self.title,
            "headline": self.headline.to_json(),
            "sections": [s.to_json() for s in self.sections],
            "raw": self.raw,
        }

    def to_text(self) -> str:
        """Return the document as aligned plain text (what `explorer report` prints)."""
        lines = [self.title, self.headline.label + ": " + self.headline.text]
        for section in self.sections:
            lines += ["", f"== {section.title}"]
            if section.note:
                lines.append(section.note)
            width = max((len(f.label) for f in section.fields), default=0)
            lines += [f"{f.label.ljust(width)}  {f.text}" for f in section.fields]
        return "\n".join(lines) + "\n"
