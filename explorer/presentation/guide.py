"""Help > User guide: how to use the explorer, in a few short sections (Qt-free)."""

from __future__ import annotations

#: What the guide suggests typing in the search bar; each opens a page or a tool (tests check
#: every one on the devnet, whose names include alice.rsk).
SEARCH_EXAMPLES = (
    "12",
    "latest",
    "alice.rsk",
    "keccak hello",
    "1.5 rbtc",
    "30 gwei",
    "transfer(address,uint256)",
    "checksum 0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed",
)


def _examples() -> str:
    """Return the search examples as a list of code items."""
    return "\n".join(f"- `{example}`" for example in SEARCH_EXAMPLES)


GUIDE = f"""\
# Rootstock Explorer

A block explorer for Rootstock on your desktop. It reads a node of the network you choose
(toolbar, right): Rootstock Mainnet or Testnet with your API key or their public node, an
endpoint of your own, or the Local devnet the app starts by itself.

## Search

Type in the search bar and press Enter: a block number or `latest`, a transaction or block
hash (0x and 64 hex digits), an address (0x and 40), or a name ending in `.rsk`. The bar
always shows what the page in front is about, like a browser's address bar; Esc puts it back
after an edit. It also opens the tools. Try:

{_examples()}

## Pages and tabs

Every hash, address and block on a page is a link: click to open it here, middle-click or
Ctrl+click to open it in a new tab. Back and Forward (Alt+Left, Alt+Right, or the mouse's side
buttons) move through a tab's history. Tables sort by any column: click its header.

## A transaction that is not mined

Paste its hash. A pending transaction's page says what holds it (a missing nonce, a gas price
below the block minimum, a sender who cannot pay) and follows it until it is mined. A hash the
node does not know is explained when this app saw it before, and looked for on your other
networks.

## Broadcast

Broadcast (toolbar) decodes a signed transaction you paste, checks it with reads only, and
sends it once you confirm, naming the network. Its page then opens and follows it.

## Logs, tokens and activity

Logs (toolbar) scans any block range for events, with filters by address and topics, and
exports CSV or JSON. An address page shows token balances, the contract's functions and its
activity found by scanning a block range.

## Bookmarks and labels

Ctrl+D bookmarks the page; give an address a label from its menu (right-click). The
Bookmarks panel (Ctrl+Shift+B) lists both, per network.

## Requests

The hosted service counts requests per key and day. The status bar and the home page show
how many were spent today; the Node page sets the daily quota to compare with.

## On the command line

`explorer report <query>`, `explorer logs`, `explorer send` and `explorer rpc` print the same
facts in a terminal; `explorer --help` lists them.
"""
