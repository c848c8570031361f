"""The repository stands alone: no tracked file refers outside it, and its fixtures are inside."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[1]
TESTNET_FIXTURES = REPO / "tests" / "fixtures" / "rsk-testnet"
TESTNET_SAMPLES = {
    "block-0x1b4-header-only.json",
    "receipt-0x359f.json",
    "tx-0x359f.json",
    "tx-0x507e-eip155-chain31.json",
    "tx-0x9791-remasc.json",
}
# Built from parts, so this file does not match its own patterns.
SHARED = "shared"
OUTSIDE = re.compile(
    "|".join(
        (
            rf"\.\./{SHARED}\b",  # the directory beside the checkout
            rf"/\s*['\"]{SHARED}['\"]",  # the same, as path parts joined with /
            rf"/work/{SHARED}\b",
            rf"\b{SHARED}/(?:fixtures|seeds)\b",
            r"\bRSK" + r"\.md\b",
            r"\bDESIGN" + r"\.md\b",
        )
    )
)


def tracked_files() -> list[Path]:
    """Return the files git tracks in this checkout (skip when it is not one)."""
    if shutil.which("git") is None or not (REPO / ".git").exists():
        pytest.skip("not a git checkout")
    listing = subprocess.run(
        ["git", "ls-files", "-z"], cwd=REPO, capture_output=True, check=True
    ).stdout.decode()
    return [REPO / name for name in listing.split("\0") if name]


def text_of(path: Path) -> str | None:
    """Return a file's text, or None for a binary (NUL bytes or not UTF-8) or missing file."""
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return None  # deleted in the work tree, not yet committed
    if b"\0" in data:
        return None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return None


def outside_references(path: Path) -> list[str]:
    """Return `path:line: text` for each line of a file that refers outside the repository."""
    text = text_of(path)
    if text is None:
        return []
    return [
        f"{path.relative_to(REPO)}:{number}: {line.strip()}"
        for number, line in enumerate(text.splitlines(), start=1)
        if OUTSIDE.search(line)
    ]


def test_no_tracked_file_refers_outside_the_repository() -> None:
    """No tracked file names the directory beside the checkout, its fixtures or its notes."""
    files = tracked_files()
    assert len(files) > 100
    offences = [line for path in files for line in outside_references(path)]
    assert offences == []


def test_the_pattern_sees_each_kind_of_outside_reference(tmp_path: Path) -> None:
    """The checker flags each kind of reference (so the test above can fail)."""
    probe = tmp_path / "probe.md"
    kinds = [
        f"../{SHARED}/x",
        f'REPO.parent / "{SHARED}" / "fixtures"',
        f"/work/{SHARED}",
        f"{SHARED}/fixtures/a.json",
        "RSK" + ".md",
        "DESIGN" + ".md",
    ]
    probe.write_text("\n".join(["clean", *kinds]))
    assert [OUTSIDE.search(line) is not None for line in probe.read_text().splitlines()] == [
        False,
        *[True] * len(kinds),
    ]
    assert text_of(tmp_path / "missing") is None
    (tmp_path / "binary").write_bytes(b"text\0")
    assert text_of(tmp_path / "binary") is None


def test_the_testnet_fixtures_are_in_the_repository() -> None:
    """tests/fixtures/rsk-testnet holds the real testnet samples, tracked, as JSON."""
    present = {path.name for path in TESTNET_FIXTURES.glob("*.json")}
    assert present >= TESTNET_SAMPLES
    tracked = {path.name for path in tracked_files() if path.parent == TESTNET_FIXTURES}
    assert tracked >= TESTNET_SAMPLES
    for name in sorted(present):
        value = json.loads((TESTNET_FIXTURES / name).read_text(encoding="utf-8"))
        assert isinstance(value, dict | list), name
        assert value, name
