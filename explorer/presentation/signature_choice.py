"""The user's signature list: where the choice is kept, and the earlier choice, read on first use.

Light on purpose: the app names the list chosen in an earlier session at start without loading
the contract machinery (ABI decoding, code analysis); the list is read when a contract is first
read (presentation/contract_facts.py).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path


@dataclass
class SignatureChoice:
    """Where a new choice is kept (the app's settings), and the earlier choice not read yet."""

    remember: Callable[[str], None] | None = None
    unread: Path | None = None


#: The window's one choice (the contract tab's "Add signatures…" sets it for every tab).
CHOICE = SignatureChoice()
