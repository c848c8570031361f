"""Logs written out: one JSON array of logs as data or CSV rows, to a stream or a file."""

from __future__ import annotations

import csv
import enum
import io
import json
import threading
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TextIO

from explorer.chain.abi import event_name_of
from explorer.chain.checksum import to_checksum_address
from explorer.chain.records import Log
from explorer.saved.files import replaced_whole

EXPORT_SLICE = 100  # rows formatted, then written at once, between progress reports
CSV_HEADER = (
    "block",
    "transaction_hash",
    "log_index",
    "address",
    "topic0",
    "topic1",
    "topic2",
    "topic3",
    "data",
    "event",
)


class ExportFormat(enum.Enum):
    """How logs are written: one JSON array of logs as data, or CSV rows."""

    JSON = "json"
    CSV = "csv"

    @property
    def title(self) -> str:
        """Return the format's name for people (JSON, CSV)."""
        return self.value.upper()


class ExportCancelled(Exception):
    """The export was stopped before its end; nothing was written at its path."""


def event_name(topics: Sequence[str], data: bytes) -> str:
    """Return the name the bundled table gives a log's event (by topic0), or "" when unknown."""
    return event_name_of(topics[0], len(topics)) if topics else ""


def csv_fields(log: Log) -> list[str]:
    """Return one CSV row of a log, in the order of CSV_HEADER."""
    topics = [*log.topics, "", "", "", ""][:4]
    return [
        "" if log.block_number is None else str(log.block_number),
        log.transaction_hash or "",
        "" if log.log_index is None else str(log.log_index),
        log.address,
        *topics,
        "0x" + log.data.hex(),
        event_name(log.topics, log.data),
    ]


def csv_line(log: Log) -> str:
    """Return a log's CSV row as one line, made once as the log arrives (exports are instant).

    No field needs quoting (numbers, hex and event names, which are identifiers): the same row
    the csv module writes.
    """
    return ",".join(csv_fields(log)) + "\n"


def log_data(log: Log, chain_id: int | None) -> dict[str, object]:
    """Return a log as data (docs/schemas/logs.json): numbers, checksummed address, hex, name.

    `event` is the bundled table's name for its topic0, null when unknown.
    """
    return {
        "block": log.block_number,
        "block_hash": log.block_hash,
        "transaction_hash": log.transaction_hash,
        "transaction_index": log.transaction_index,
        "log_index": log.log_index,
        "address": to_checksum_address(log.address, chain_id),
        "topics": list(log.topics),
        "data": "0x" + log.data.hex(),
        "event": event_name(log.topics, log.data) or None,
    }


class LogWriter:
    """Writes logs to a text stream in a format; `close` ends the document.

    JSON is one array of logs as data (log_data), addresses in chain_id's checksum.
    """

    def __init__(self, stream: TextIO, fmt: ExportFormat, chain_id: int | None = None) -> None:
        self.stream, self.count, self.chain_id = stream, 0, chain_id
        self._csv = csv.writer(stream, lineterminator="\n") if fmt is ExportFormat.CSV else None
        if self._csv is not None:
            self._csv.writerow(CSV_HEADER)
        else:
            stream.write("[")

    def write_log(self, log: Log) -> None:
        """Write a parsed log: a CSV row, or a member of the JSON array."""
        if self._csv is not None:
            self._csv.writerow(csv_fields(log))
        else:
            text = json.dumps(log_data(log, self.chain_id))
            self.stream.write(("\n  " if self.count == 0 else ",\n  ") + text)
        self.count += 1

    def write_raw(self, raw: bytes) -> None:
        """Write a log given as the node's JSON object (UTF-8 bytes)."""
        self.write_log(Log.from_json(json.loads(raw)))

    def close(self) -> None:
        """Finish the document (the JSON array's end)."""
        if self._csv is None:
            self.stream.write("\n]\n" if self.count else "]\n")


def export_rows(
    raws: Sequence[bytes],
    fmt: ExportFormat,
    path: Path,
    on_progress: Callable[[int], None] | None = None,
    stop: threading.Event | None = None,
    lines: Sequence[str] = (),
    chain_id: int | None = None,
) -> int:
    """Write logs (the node's JSON objects as bytes) to path, whole or not at all.

    For CSV, lines may hold every row's line made beforehand: then they are only written.
    Report the rows written every EXPORT_SLICE rows (on_progress may block to pace the work).
    Blocking: run it off the GUI thread. Raises ExportCancelled once stop is set, OSError when
    the file cannot be written.
    """
    if fmt is ExportFormat.CSV and lines and all(lines):
        return _export_lines(lines, path, on_progress, stop)
    with replaced_whole(path, newline="") as out:
        # A slice is formatted in memory and written at once: a worker that wrote (releasing
        # the GIL) every few kilobytes would keep the GUI thread waiting for the GIL.
        slice_text = io.StringIO()
        writer = LogWriter(slice_text, fmt, chain_id)
        for first in range(0, len(raws), EXPORT_SLICE):
            if stop is not None and stop.is_set():
                raise ExportCancelled(f"the export to {path.name} was cancelled")
            for raw in raws[first : first + EXPORT_SLICE]:
                writer.write_raw(raw)
            _move(slice_text, out)
            if on_progress is not None:
                on_progress(min(len(raws), first + EXPORT_SLICE))
        writer.close()
        _move(slice_text, out)
    return len(raws)


def _export_lines(
    lines: Sequence[str],
    path: Path,
    on_progress: Callable[[int], None] | None,
    stop: threading.Event | None,
) -> int:
    """Write the CSV header, then the rows' lines as they were made."""
    slice_rows = EXPORT_SLICE * 50  # lines are joined, not formatted: larger slices
    with replaced_whole(path, newline="") as out:
        out.write(",".join(CSV_HEADER) + "\n")
        for first in range(0, len(lines), slice_rows):
            if stop is not None and stop.is_set():
                raise ExportCancelled(f"the export to {path.name} was cancelled")
            out.write("".join(lines[first : first + slice_rows]))
            if on_progress is not None:
                on_progress(min(len(lines), first + slice_rows))
    return len(lines)


def _move(text: io.StringIO, out: TextIO) -> None:
    """Write what a memory buffer holds to out and empty it."""
    out.write(text.getvalue())
    text.seek(0)
    text.truncate()
