"""A page as data: titled sections of labelled fields, rendered by the window and by `report`."""

from __future__ import annotations

import enum
import re
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from explorer.chain.checksum import to_checksum_address
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

    def to_data(self, chain_id: int | None) -> dict[str, Any]:
        """Return the field as data: its key, label, type and value (no display text).

        Numbers are JSON numbers (amounts in wei), hashes and bytes 0x-hex, addresses in the
        chain's checksum, times ISO 8601 in UTC; a field with no raw value gives its text.
        """
        data: dict[str, Any] = {"key": data_key(self.label), "label": self.label.strip()}
        data["type"] = self._data_type()
        data["value"] = self._data_value(chain_id)
        if self.kind is Kind.AMOUNT:
            data["unit"] = "wei"
        if self.tone is not Tone.NORMAL:
            data["tone"] = self.tone.value
        if self.link:
            data["link"] = str(self.link)
        return data

    def _data_type(self) -> str:
        """Return the field's data type: its kind, or quantity for a bare number."""
        number = self.value is None and INTEGER_TEXT.fullmatch(self.text) is not None
        if self.kind is Kind.TEXT and (isinstance(self.value, int) or number):
            return "quantity"
        return self.kind.value

    def _data_value(self, chain_id: int | None) -> Any:
        """Return the raw value in its JSON form."""
        value = self.value
        if value is None:
            if INTEGER_TEXT.fullmatch(self.text):
                return int(self.text.replace(",", ""))
            return None if self.text in EMPTY_TEXTS else self.text
        if self.kind is Kind.TIME and isinstance(value, int):
            return datetime.fromtimestamp(value, tz=UTC).isoformat().replace("+00:00", "Z")
        if self.kind is Kind.ADDRESS and isinstance(value, str) and chain_id is not None:
            return to_checksum_address(value, chain_id)
        if isinstance(value, bytes):
            return "0x" + value.hex()
        return value


EMPTY_TEXTS = ("—", "")  # what a field shows when it has no value
INTEGER_TEXT = re.compile(r"-?\d{1,3}(,\d{3})*|-?\d+")  # a whole number as text: `21`, `1,000`


def data_key(label: str) -> str:
    """Return a label as a JSON key: `Gas used` -> `gas_used`, `Log 3 · emitted by` -> ..."""
    return re.sub(r"[^a-z0-9]+", "_", label.lower()).strip("_")


@dataclass(frozen=True)
class Section:
    """A titled group of fields."""

    title: str
    fields: tuple[Field, ...] = field(default_factory=tuple)
    note: str = ""

    def to_data(self, chain_id: int | None) -> dict[str, Any]:
        """Return the section as data (see Field.to_data)."""
        fields = [f.to_data(chain_id) for f in self.fields]
        data: dict[str, Any] = {"key": data_key(self.title), "title": self.title, "fields": fields}
        if self.note:
            data["note"] = self.note
        return data

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

    def to_data(self) -> dict[str, Any]:
        """Return the page as data: what `--format json` prints (docs/report-json.md)."""
        return {
            "title": self.title,
            "chain_id": self.chain_id,
            "headline": self.headline.to_data(self.chain_id),
            "sections": [s.to_data(self.chain_id) for s in self.sections],
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
