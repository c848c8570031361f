"""The Bridge page: federation, the peg's limits, queued peg-outs, the Bridge's Bitcoin tip."""

from __future__ import annotations

from explorer.chain.known import BRIDGE
from explorer.chain.peg import BLOCK_SECONDS, LOCKED_SUPPLY_WEI, PegNetwork
from explorer.chain.units import format_rbtc, readable_rbtc
from explorer.presentation import format as fmt
from explorer.presentation.btc_fields import SATOSHI, btc_address_field, btc_amount_field
from explorer.presentation.document import Document, Field, Kind, Section, Tone, data_key, facts
from explorer.services.bridge import BridgeOverview, BridgeRead

NOT_HERE = "not on this network"


def _refused(label: str, read: BridgeRead, kind: Kind, unit: str = "") -> Field:
    """Return a read the node refused: not on this network (its upgrades lack it)."""
    tooltip = f"The node refused {read.name}: {read.detail}" if read.detail else ""
    return Field(label, NOT_HERE, kind, None, tooltip, Tone.MUTED, unit=unit)


def _int(label: str, read: BridgeRead, text: str = "{:,}") -> Field:
    """Return a number read from the Bridge."""
    if read.refused:
        return _refused(label, read, Kind.QUANTITY)
    value = int(read.value)
    return Field(label, text.format(value), Kind.QUANTITY, value, tooltip=read.name)


def _sat(label: str, read: BridgeRead, note: str = "") -> Field:
    """Return a satoshi amount read from the Bridge."""
    if read.refused:
        return _refused(label, read, Kind.AMOUNT, SATOSHI)
    return btc_amount_field(label, int(read.value), note)


def _address(label: str, read: BridgeRead) -> Field:
    """Return a federation address read from the Bridge ("" is none)."""
    if read.refused:
        return _refused(label, read, Kind.BTC_ADDRESS)
    return btc_address_field(label, str(read.value) or None, "" if read.value else "none")


def eta_text(blocks: int) -> str:
    """Return how long a number of RSK blocks takes, about."""
    return "now" if blocks <= 0 else f"in about {fmt.duration_text(blocks * BLOCK_SECONDS)}"


def _next_pegout(read: BridgeRead, head: int | None) -> Field:
    """Return the next peg-out creation height and when it comes (blocks to go, in JSON)."""
    if read.refused:
        return _refused("Next peg-out creation", read, Kind.BLOCK)
    height = int(read.value)
    when = ""
    if head is not None:
        when = " — due at the next federator heartbeat" if height <= head else ""
        when = when or f" — {eta_text(height - head)} ({height - head:,} blocks)"
    to_go = facts(blocks_to_go=None if head is None else max(height - head, 0))
    return Field(
        "Next peg-out creation", f"block {height:,}{when}", Kind.BLOCK, height, facts=to_go
    )


def bridge_document(
    overview: BridgeOverview, peg: PegNetwork, *, chain_id: int, currency: str, head: int | None
) -> Document:
    """Return the Bridge page from its reads."""
    r = overview.reads
    locked = LOCKED_SUPPLY_WEI - overview.balance
    size, threshold = r["getFederationSize"], r["getFederationThreshold"]
    quorum = ""
    if not size.refused and not threshold.refused:
        quorum = f"{threshold.value} of {size.value} federators sign each peg-out"
    federation = Section(
        "Federation (PowPeg)",
        (
            _address("Federation address", r["getFederationAddress"]),
            _int("Size", size),
            _int("Threshold", threshold),
            fmt.text_field("Signing", quorum or NOT_HERE, Tone.NORMAL if quorum else Tone.MUTED),
            _address("Retiring federation", r["getRetiringFederationAddress"]),
            _address("Proposed federation", r["getProposedFederationAddress"]),
        ),
    )
    peg_section = Section(
        "The peg",
        (
            fmt.amount_field(f"{currency} locked in the peg", locked, currency),
            fmt.address_field(
                "Bridge account", BRIDGE, chain_id, f"balance: {currency} not pegged in"
            ),
            fmt.amount_field("Bridge balance", overview.balance, currency),
            _sat("Locking cap", r["getLockingCap"]),
            _sat("Minimum peg-in", r["getMinimumLockTxValue"], "less is not refunded"),
            _sat("Fee per kB", r["getFeePerKb"], "for peg-out transactions, per 1,000 bytes"),
        ),
        note=f"{currency} locked = 21,000,000 {currency} less the Bridge's balance.",
    )
    pegouts = Section(
        "Peg-outs",
        (
            _int("Queued requests", r["getQueuedPegoutsCount"]),
            _next_pegout(r["getNextPegoutCreationBlockNumber"], head),
            _sat("Estimated fees, next peg-out", r["getEstimatedFeesForNextPegOutEvent"]),
            btc_amount_field("Minimum peg-out", peg.min_pegout_sat, "this network's constant"),
        ),
    )
    bitcoin = Section(
        "Bitcoin",
        (
            fmt.status_field("Network", data_key(peg.btc.name), peg.btc.name),
            _int("Bridge's Bitcoin tip", r["getBtcBlockchainBestChainHeight"], "block {:,}"),
            fmt.quantity_field(
                "Peg-in confirmations",
                peg.btc_confirmations,
                f"{peg.btc_confirmations:,} Bitcoin blocks before a peg-in can be registered",
                unit="btc_blocks",
            ),
            fmt.quantity_field(
                "Peg-out confirmations",
                peg.pegout_confirmations,
                f"{peg.pegout_confirmations:,} RSK blocks between a peg-out's creation and its "
                f"signing ({eta_text(peg.pegout_confirmations).removeprefix('in ')})",
                unit="blocks",
            ),
            fmt.quantity_field(
                "Peg-out interval",
                peg.pegout_interval,
                f"a batch every {peg.pegout_interval:,} RSK blocks at most",
                unit="blocks",
            ),
        ),
    )
    at = overview.block
    shown = f"block {at:,}" if isinstance(at, int) else str(at)
    headline = Field(
        "Locked",
        f"{readable_rbtc(locked, currency)} locked in the peg · read at {shown}",
        Kind.AMOUNT,
        locked,
        f"{locked:,} wei",
        facts=facts(block=at if isinstance(at, int) else None),
        exact=format_rbtc(locked, currency),
    )
    raw = {name: _raw(read) for name, read in r.items()}
    raw["balance"] = str(overview.balance)
    sections = (federation, peg_section, pegouts, bitcoin)
    title = "The Bridge (2-way peg with Bitcoin)"
    return Document(title, headline, sections, raw, chain_id, "bridge")


def _raw(read: BridgeRead) -> object:
    """Return a read as JSON-ready data."""
    if read.refused:
        return {"refused": read.detail or True}
    value = read.value
    return "0x" + value.hex() if isinstance(value, bytes) else value
