"""docs/service.md §15.8 lists the methods the rskj profile serves and those it does not."""

from __future__ import annotations

import re
from pathlib import Path

from explorer.devnet.profile import RSKJ_ONLY_FORMS, RSKJ_UNSERVED

DOC = Path(__file__).resolve().parents[2] / "docs" / "service.md"
METHOD = re.compile(r"`([a-z0-9]+_[A-Za-z0-9]+)`")


def _section() -> str:
    """Return the text of §15.8."""
    text = DOC.read_text(encoding="utf-8")
    start = text.index("### §15.8")
    return text[start : text.index("\n### ", start + 1)]


def _first_column_methods(table: str) -> set[str]:
    """Return the method names in the first cell of each row of a markdown table."""
    names: set[str] = set()
    for line in table.splitlines():
        if line.startswith("| `"):
            names.update(METHOD.findall(line.split(" | ")[0]))
    return names


def test_the_served_table_is_the_code() -> None:
    served, _, rest = _section().partition("Not served")
    assert _first_column_methods(served) == set(RSKJ_ONLY_FORMS) | {"eth_accounts"}
    assert _first_column_methods(rest) == set(RSKJ_UNSERVED)
