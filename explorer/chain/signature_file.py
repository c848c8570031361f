"""A user's own signature list: the bundled format, or one `name(type,…)` a line (4byte style)."""

from __future__ import annotations

from dataclasses import dataclass

from explorer.chain.signatures import (
    Signature,
    SignatureSyntaxError,
    SignatureTable,
    parse_signature,
)

MAX_LINES = 1_000_000
MAX_PROBLEMS = 20


@dataclass(frozen=True)
class SignatureList:
    """The table read from a user's list and the lines it could not read."""

    table: SignatureTable
    count: int
    problems: tuple[str, ...]


def parse_signature_list(text: str) -> SignatureList:
    """Read a user's list; a line that is not a signature is noted, never fatal."""
    signatures: list[Signature] = []
    problems: list[str] = []
    for number, raw in enumerate(text.splitlines()[:MAX_LINES], start=1):
        line = raw.split("#", 1)[0].strip()
        if not line:
            continue
        if not line.startswith(("function ", "event ")):
            line = "function " + line
        try:
            signatures.append(parse_signature(line))
        except SignatureSyntaxError as error:
            if len(problems) < MAX_PROBLEMS:
                problems.append(f"line {number}: {error}")
    return SignatureList(SignatureTable.build(signatures), len(signatures), tuple(problems))
