"""The contract tab's lasting choice: the user's signature list, kept in the settings."""

from __future__ import annotations

import logging
from pathlib import Path

from explorer.presentation.contract_facts import use_signature_list
from explorer.settings.store import SIGNATURE_LIST, Settings
from explorer.viewmodels.address import contract_info

log = logging.getLogger(__name__)


def keep_signature_list(settings: Settings) -> None:
    """Name selectors from the list chosen before, and keep the next choice in settings."""
    contract_info.remember_signature_list = lambda path: settings.set(SIGNATURE_LIST, path)
    chosen = settings.get(SIGNATURE_LIST)
    if not chosen:
        return
    try:
        use_signature_list(Path(chosen))
    except OSError as error:  # moved or deleted since: said in the log, the choice kept
        log.warning("the signature list %s could not be read: %s", chosen, error.strerror)
