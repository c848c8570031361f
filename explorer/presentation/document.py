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
    """What a field's value is: how it is shown, and its `type` in JSON (docs/report-json.md)."""

    TEXT = "text"  # words only: no value, the page's words in `text`
    QUANTITY = "quantity"  # an integer: a count, gas, a nonce, a size, a latency (with `unit`)
    BOOLEAN = "boolean"
    STATUS = "status"  # a fixed lowercase word (an enum; each command's schema lists them)
    ADDRESS = "address"
    TX_HASH = "tx_hash"
    BLOCK = "block"  # a block number (int) or a block hash (str)
    HASH = "hash"
    AMOUNT = "amount"  # an integer of base units (unit: wei, satoshi or token)
    TIME = "time"  # a Unix time, given in JSON in ISO 8601 UTC
    HEX = "hex"
    ABI = "abi"  # a decoded argument: JSON-ready data of its ABI type (ints as decimal strings)
    BTC_TX = "btc_tx"  # a Bitcoin txid: copy, open in a Bitcoin explorer
    BTC_ADDRESS = "btc_address"
    BTC_BLOCK = "btc_block"
    BTC_HASH = "btc_hash"  # another Bitcoin hash in display order (a merkle root)


class Tone(enum.Enum):
    """The emphasis of a field (status colours)."""

    NORMAL = "normal"
    GOOD = "good"
    BAD = "bad"
    WAITING = "waiting"
    MUTED = "muted"


Facts = tuple[tuple[str, Any], ...]  # more data beside a field's value, already JSON-ready


def facts(**members: Any) -> Facts:
    """Return data members to give beside a field's value (amounts as decimal strings)."""
    return tuple(members.items())


def iso_time(timestamp: float) -> str:
    """Return a Unix time as ISO 8601 in UTC: `2025-01-01T00:02:00Z`."""
    return datetime.fromtimestamp(int(timestamp), tz=UTC).isoformat().replace("+00:00", "Z")


@dataclass(frozen=True)
class Field:
    """One labelled value: display text plus the value (and facts) a widget or JSON needs."""

    label: str
    text: str
    kind: Kind = Kind.TEXT
    value: Any = None
    tooltip: str = ""
    tone: Tone = Tone.NORMAL
    link: Route | None = None
    unit: str = ""  # an amount's (wei unless said) or a quantity's (ms, s, bytes)
    facts: Facts = ()
    exact: str = ""  # what Copy gives when text rounds the value (an amount), else ''

    def to_data(self, chain_id: int | None) -> dict[str, Any]:
        """Return the field as data: key, label, type, value, its facts, and its words as text.

        Quantities are JSON numbers, amounts decimal strings of base units, hashes and bytes
        0x-hex, addresses in the chain's checksum, times ISO 8601 in UTC; `text` (what the
        page shows) is left out where it is the value itself (a hash, `1,234`).
        """
        value = self._data_value(chain_id)
        data: dict[str, Any] = {"key": data_key(self.label), "label": self.label.strip()}
        data["type"] = self.kind.value
        data["value"] = value
        if self.unit or self.kind is Kind.AMOUNT:
            data["unit"] = self.unit or "wei"
        data.update(self.facts)
        if not self._shown_as_itself(value):
            data["text"] = self.text
        if self.tone is not Tone.NORMAL:
            data["tone"] = self.tone.value
        if self.link:
            data["link"] = str(self.link)
        return data

    def _shown_as_itself(self, value: Any) -> bool:
        """Tell whether the page shows the value as it is (a hash, `1,234`): no text needed."""
        if isinstance(value, int) and not isinstance(value, bool):
            return self.text in (str(value), f"{value:,}")
        return isinstance(value, str) and self.text == value

    def _data_value(self, chain_id: int | None) -> Any:
        """Return the value in its JSON form."""
        value = self.value
        if value is None:
            return None
        if isinstance(value, bytes):
            return "0x" + value.hex()
        if self.kind is Kind.TIME and isinstance(value, int | float):
            return iso_time(value)
        if self.kind is Kind.ADDRESS and isinstance(value, str):
            return to_checksum_address(value, chain_id)
        if self.kind is Kind.AMOUNT and isinstance(value, int):
            return str(value)
        return value


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
        """Return the section as data (see Field.to_data); its note is its `text`."""
        fields = [f.to_data(chain_id) for f in self.fields]
        data: dict[str, Any] = {"key": data_key(self.title), "title": self.title, "fields": fields}
        if self.note:
            data["text"] = self.note
        return data


@dataclass(frozen=True)
class Document:
    """Everything a page shows: a headline, sections, and the node's raw JSON."""

    title: str
    headline: Field
    sections: tuple[Section, ...]
    raw: dict[str, Any] = field(default_factory=dict)
    chain_id: int | None = None
    page: str = ""  # what the page shows, a fixed word in JSON: transaction, block, address…

    def to_data(self) -> dict[str, Any]:
        """Return the page as data: what `--format json` prints (docs/report-json.md)."""
        return {
            "page": self.page,
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
