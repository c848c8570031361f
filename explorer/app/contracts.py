"""The contract tab's lasting choice: the user's signature list, kept in the settings.

Nothing of the contract machinery is imported here: the list chosen in an earlier session is
read when a contract is first read (explorer/presentation/contract_facts.py).
"""

from __future__ import annotations

from pathlib import Path

from explorer.presentation.signature_choice import CHOICE
from explorer.settings.store import SIGNATURE_LIST, Settings


def keep_signature_list(settings: Settings) -> None:
    """Name selectors from the list chosen before (read on first use); keep the next choice."""
    CHOICE.remember = lambda path: settings.set(SIGNATURE_LIST, path)
    chosen = settings.get(SIGNATURE_LIST)
    CHOICE.unread = Path(chosen) if chosen else None
