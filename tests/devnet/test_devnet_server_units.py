"""Pure parts of the devnet server: key paths, quota book, reset time, redaction."""

from __future__ import annotations

import datetime as dt

import pytest

from explorer.devnet.envelope import nesting_depth
from explorer.devnet.keys import without_key
from explorer.devnet.server import QuotaBook, key_from_path, seconds_to_utc_midnight


@pytest.mark.parametrize(
    ("path", "key"),
    [
        ("/", ""),
        ("", ""),
        ("/v2", ""),
        ("/v2/", ""),
        ("/abc", "abc"),
        ("/abc/", "abc"),
        ("/v2/abc", "abc"),
        ("/v2/abc/def", None),
        ("/a/b", None),
    ],
)
def test_key_from_path(path: str, key: str | None) -> None:
    """The key is the last segment of `/<KEY>` or `/v2/<KEY>`."""
    assert key_from_path(path) == key


def at(text: str) -> float:
    """Return a UTC timestamp from ISO text."""
    return dt.datetime.fromisoformat(text).replace(tzinfo=dt.UTC).timestamp()


def test_seconds_to_utc_midnight() -> None:
    """Seconds until the next UTC midnight, never zero."""
    assert seconds_to_utc_midnight(at("2026-01-01T23:59:00")) == 60
    assert seconds_to_utc_midnight(at("2026-01-01T00:00:00")) == 86_400
    assert seconds_to_utc_midnight(at("2026-01-01T23:59:59.5")) == 1


def test_quota_book_per_key_per_day() -> None:
    """Requests are counted per key; a new UTC day starts afresh."""
    now = [at("2026-03-04T10:00:00")]
    book = QuotaBook(10, clock=lambda: now[0])
    assert book.try_spend("a", 6)
    assert book.try_spend("a", 4)
    assert not book.try_spend("a", 1)
    assert book.try_spend("b", 10)
    assert book.retry_after() == 14 * 3600
    now[0] = at("2026-03-05T00:00:01")
    assert book.try_spend("a", 10)


def test_quota_book_refuses_a_batch_that_does_not_fit() -> None:
    """A batch larger than what is left is refused whole and spends nothing."""
    book = QuotaBook(5)
    assert not book.try_spend("k", 6)
    assert book.try_spend("k", 5)


def test_no_quota_means_unlimited() -> None:
    """A limit of None never refuses."""
    assert QuotaBook(None).try_spend("k", 10**9)


def test_a_redacted_key_keeps_no_part_of_it() -> None:
    """A redacted key keeps none of its characters; a path loses it in any form."""
    key = "0123456789abcdef"
    assert without_key(f"/v2/{key.upper()}", key) == "/v2/<key>"
    assert without_key(f"/{key[:8]}%{ord(key[8]):02x}{key[9:]}", key) == "/<key>"


def test_nesting_depth() -> None:
    """Depth counts arrays and objects, not scalars, without recursion."""
    assert nesting_depth(1) == 0
    assert nesting_depth([1, {"a": [2]}]) == 3
    deep: list[object] = []
    for _ in range(100_000):
        deep = [deep]
    assert nesting_depth(deep) == 100_000


def test_latency_option_delays_every_answer() -> None:
    """`--latency` makes the devnet answer like a remote node (for benchmarks)."""
    from explorer.cli.devnet import build_parser
    from explorer.devnet.process import DevnetOptions

    assert build_parser().parse_args(["--latency", "0.1"]).latency == 0.1
    assert build_parser().parse_args([]).latency == 0.0
    assert "--latency" in DevnetOptions(latency=0.1).arguments("k")
    assert "--latency" not in DevnetOptions().arguments("k")
