"""Shared display widgets for chain data (Otterscan-style): address, hash, amount, age, hex."""

from explorer.views.widgets.address import AddressLabel
from explorer.views.widgets.age import AgeLabel, AgeTicker, age_text
from explorer.views.widgets.amount import AmountLabel, ExactValueLabel
from explorer.views.widgets.hashlabel import HashLabel
from explorer.views.widgets.hexview import HexViewer
from explorer.views.widgets.links import ElidedLinkLabel, LinkLabel
from explorer.views.widgets.menus import build_context_menu, copy_to_clipboard

__all__ = [
    "AddressLabel",
    "AgeLabel",
    "AgeTicker",
    "AmountLabel",
    "ElidedLinkLabel",
    "ExactValueLabel",
    "HashLabel",
    "HexViewer",
    "LinkLabel",
    "age_text",
    "build_context_menu",
    "copy_to_clipboard",
]
