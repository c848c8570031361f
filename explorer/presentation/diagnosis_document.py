"""The support desk's words: why a transaction is pending, what became of a missing one.

One sentence names what holds the transaction, with its numbers; the section under it gives
every number it rests on. The window's pages and `explorer report` print the same words.
"""

from __future__ import annotations

from explorer.chain.pooled import PRICE_BUMP_PERCENT
from explorer.chain.units import format_gwei, readable_rbtc
from explorer.presentation import format as fmt
from explorer.presentation.document import Document, Field, Kind, Section, Tone, facts, iso_time
from explorer.saved.seen import SeenTx
from explorer.services.diagnosis import (
    POOL_EXPIRY_BLOCKS,
    POOL_EXPIRY_SECONDS,
    Hold,
    PendingDiagnosis,
    Wait,
)
from explorer.services.elsewhere import Presence, Sighting
from explorer.services.fate import Fate, MissingDiagnosis
from explorer.services.replacement import SearchProgress

NOT_FOUND_MEANINGS = (
    ("Never sent", "the transaction never reached this node, or the node refused it"),
    (
        "Queued",
        "it waits behind a missing nonce: rskj keeps such a transaction but "
        "eth_getTransactionByHash does not return it",
    ),
    (
        "Dropped",
        f"the pool let it go: rskj drops entries after {POOL_EXPIRY_BLOCKS} blocks or "
        f"{POOL_EXPIRY_SECONDS} s, and a same-nonce transaction paying more replaces it",
    ),
    ("Another network", "it was sent to another network (see Other networks)"),
)
BLOCKING = (Hold.INSUFFICIENT_FUNDS, Hold.PRICE_BELOW_MINIMUM, Hold.NONCE_USED)


def short(tx_hash: str) -> str:
    """Return a hash with its middle left out, for a sentence (the full one is linked)."""
    return f"{tx_hash[:10]}…{tx_hash[-8:]}"


def nonces_text(nonces: range) -> str:
    """Return `nonce 7` or `nonces 185–188`."""
    if len(nonces) == 1:
        return f"nonce {nonces.start}"
    return f"nonces {nonces.start}–{nonces.stop - 1}"


def hold_sentence(diagnosis: PendingDiagnosis, hold: Hold, currency: str) -> str:
    """Return one reason in one sentence, with its numbers."""
    tx, state = diagnosis.candidate, diagnosis.state
    if hold is Hold.INSUFFICIENT_FUNDS:
        return (
            f"the sender cannot pay it: a balance of {readable_rbtc(state.balance, currency)} "
            f"against value + gas × gas price = {readable_rbtc(tx.max_cost, currency)} (short by "
            f"{readable_rbtc(diagnosis.shortfall, currency)})"
        )
    if hold is Hold.PRICE_BELOW_MINIMUM:
        return (
            f"its gas price {format_gwei(tx.gas_price)} is below the latest block's minimum "
            f"{format_gwei(state.minimum_gas_price or 0)}: no block takes it until that falls"
        )
    if hold is Hold.NONCE_GAP:
        return (
            f"waiting for {nonces_text(diagnosis.missing_nonces)} from this sender, which the "
            "node has not seen"
        )
    if hold is Hold.BEHIND_PENDING:
        earlier = diagnosis.earlier_nonces
        count = f"{len(earlier)} pending transaction{'s' if len(earlier) != 1 else ''}"
        return f"behind {count} from this sender ({nonces_text(earlier)}), mined first"
    if hold is Hold.NONCE_USED:
        return (
            f"its nonce {tx.nonce} is already used (the sender's next is {state.mined_nonce}): "
            "it can never be mined"
        )
    return f"next in line: nonce {tx.nonce} is the sender's next; it waits for a block"


def pending_sentence(diagnosis: PendingDiagnosis, currency: str) -> str:
    """Return the verdict: the main reason, and a second blocking one if there is one."""
    main = hold_sentence(diagnosis, diagnosis.main, currency)
    more = [h for h in diagnosis.holds[1:] if h in BLOCKING or h is Hold.NONCE_GAP]
    if more:
        main += "; and " + hold_sentence(diagnosis, more[0], currency)
    return main


def wait_text(wait: Wait | None, now: float) -> str:
    """Return how long it has waited since this app first saw it."""
    if wait is None:
        return "not seen by this app before"
    blocks = ""
    if wait.blocks is not None:
        blocks = f" and {wait.blocks:,} block" + ("" if wait.blocks == 1 else "s")
    at_block = "" if wait.first_block is None else f", block {wait.first_block:,}"
    return (
        f"{fmt.duration_text(wait.seconds)}{blocks} since this app first saw it "
        f"({fmt.utc_text(int(wait.first_seen))}{at_block})"
    )


def eviction_text(wait: Wait | None) -> str:
    """Return how it stands against rskj's eviction of pool entries."""
    rule = f"rskj drops a pool entry after {POOL_EXPIRY_BLOCKS} blocks or {POOL_EXPIRY_SECONDS} s"
    if wait is None:
        return f"{rule}; when it arrived is not known here"
    if wait.expired:
        return f"{rule}: past that, so it may be dropped any time"
    blocks = "" if wait.blocks_left is None else f"{wait.blocks_left} blocks or "
    return f"{rule}: at most {blocks}{fmt.duration_text(wait.seconds_left)} left"


def facts_fields(
    diagnosis: PendingDiagnosis, currency: str, now: float, *, in_pool: bool = True
) -> list[Field]:
    """Return every number the verdict rests on; its eviction and replacement while in the pool."""
    tx, state = diagnosis.candidate, diagnosis.state
    minimum = state.minimum_gas_price
    price = f"{format_gwei(tx.gas_price)} · the latest block's minimum " + (
        format_gwei(minimum) if minimum is not None else "unknown"
    )
    price += f" · the node's gas price {format_gwei(state.gas_price)}"
    balance = (
        f"{readable_rbtc(state.balance, currency)} · it needs "
        f"{readable_rbtc(tx.max_cost, currency)} (value + gas × gas price)"
    )
    replacement = (
        f"send nonce {tx.nonce} with a gas price of at least {format_gwei(tx.bump_price)} "
        f"({PRICE_BUMP_PERCENT}% more) to replace it"
    )
    fields = [
        fmt.quantity_field(
            "Nonce",
            tx.nonce,
            f"{tx.nonce:,} · the sender's next to mine: {state.mined_nonce:,} · next after its "
            f"pending ones: {state.pending_nonce:,}",
            next_to_mine=state.mined_nonce,
            next_after_pending=state.pending_nonce,
        ),
        Field(
            "Gas price",
            price,
            Kind.AMOUNT,
            tx.gas_price,
            tone=_tone(diagnosis, Hold.PRICE_BELOW_MINIMUM),
            facts=facts(
                block_minimum=None if minimum is None else str(minimum),
                node_gas_price=str(state.gas_price),
            ),
        ),
        Field(
            "Balance",
            balance,
            Kind.AMOUNT,
            state.balance,
            tone=_tone(diagnosis, Hold.INSUFFICIENT_FUNDS),
            facts=facts(needs=str(tx.max_cost)),
        ),
        wait_field(diagnosis.wait, now),
    ]
    if not in_pool:  # gone from the pool: no eviction to count down, nothing left to replace
        return fields
    return [
        *fields,
        eviction_field(diagnosis.wait),
        Field("Replacement", replacement, Kind.AMOUNT, tx.bump_price, facts=facts(nonce=tx.nonce)),
    ]


def wait_field(wait: Wait | None, now: float) -> Field:
    """Return how long it has waited (seconds in JSON, with the blocks and when first seen)."""
    text = wait_text(wait, now)
    if wait is None:
        return fmt.quantity_field("Waiting", None, text, unit="s")
    first_seen = iso_time(wait.first_seen)
    return fmt.quantity_field(
        "Waiting",
        int(wait.seconds),
        text,
        unit="s",
        blocks=wait.blocks,
        first_seen=first_seen,
        first_block=wait.first_block,
    )


def eviction_field(wait: Wait | None) -> Field:
    """Return how it stands against the pool's eviction (seconds left in JSON, and blocks)."""
    text = eviction_text(wait)
    if wait is None:
        return fmt.quantity_field("Eviction", None, text, unit="s", expired=None)
    seconds = int(wait.seconds_left)
    return fmt.quantity_field(
        "Eviction", seconds, text, unit="s", blocks_left=wait.blocks_left, expired=wait.expired
    )


def _tone(diagnosis: PendingDiagnosis, hold: Hold) -> Tone:
    """Return BAD when this reason holds the transaction."""
    return Tone.BAD if hold in diagnosis.holds else Tone.NORMAL


def pending_section(diagnosis: PendingDiagnosis | None, currency: str, now: float) -> Section:
    """Return the 'Why it is pending' section (reading while the diagnosis is not in)."""
    if diagnosis is None:
        reading = "reading the sender's nonces and balance and the block's minimum gas price…"
        reading_field = Field("Verdict", reading, Kind.STATUS, tone=Tone.MUTED)
        return Section("Why it is pending", (reading_field,))
    tone = Tone.BAD if diagnosis.main in BLOCKING else Tone.WAITING
    word = diagnosis.main.name.lower()
    verdict = fmt.status_field("Verdict", word, pending_sentence(diagnosis, currency), tone)
    return Section("Why it is pending", (verdict, *facts_fields(diagnosis, currency, now)))


def fate_sentence(missing: MissingDiagnosis, currency: str) -> str:
    """Return what became of a transaction the node no longer returns, in one sentence."""
    fate, pending = missing.fate, missing.pending
    other, nonce = missing.replacement, missing.seen.tx.nonce
    if fate is Fate.QUEUED:
        blocking = [h for h in pending.holds if h in BLOCKING]
        also = "".join(f"; and {hold_sentence(pending, h, currency)}" for h in blocking)
        return "queued: " + hold_sentence(pending, Hold.NONCE_GAP, currency) + also
    if fate is Fate.NOT_YET_AVAILABLE:
        return "sent from here moments ago, and the node does not show it yet; still looking"
    if fate is Fate.REPLACED_IN_POOL:
        by = f"by {short(other.hash)} (gas price {format_gwei(other.gas_price)})" if other else ""
        return f"replaced in the pool {by} with the same nonce {nonce}, not mined yet"
    if fate is Fate.REPLACED and other is not None:
        return (
            f"replaced by {short(other.hash)} with the same nonce {nonce}, mined in "
            f"block {other.block_number or 0:,}"
        )
    if fate is Fate.MINED and other is not None:
        return f"mined in block {other.block_number or 0:,}"
    if fate is Fate.NONCE_USED and missing.search is not None:
        search = missing.search
        return (
            f"dropped: its nonce {nonce} was used by another transaction, not in "
            f"blocks {search.first:,}–{search.last:,}"
        )
    reason = dropped_reason(missing, currency)
    evicted = missing.pending.wait is not None and missing.pending.wait.expired
    return ("probably dropped from the pool: " if evicted else "dropped from the pool: ") + reason


def dropped_reason(missing: MissingDiagnosis, currency: str) -> str:
    """Return the likeliest reason a transaction left the pool unmined."""
    pending = missing.pending
    for hold in (Hold.INSUFFICIENT_FUNDS, Hold.PRICE_BELOW_MINIMUM):
        if hold in pending.holds:
            return hold_sentence(pending, hold, currency)
    if pending.wait is not None and pending.wait.expired:
        gap = pending.missing_nonces
        waited = f" waiting for {nonces_text(gap)}" if gap else ""
        eviction = f"{POOL_EXPIRY_BLOCKS} blocks or 650 s"
        return f"it stayed{waited} past rskj's default eviction ({eviction})"
    return (
        f"its nonce {missing.seen.tx.nonce} is still the sender's next, and the node has no trace"
    )


def search_field(progress: SearchProgress | None) -> Field | None:
    """Return the progress of the search for what used the nonce, while it runs."""
    if progress is None:
        return None
    at = "" if progress.block is None else f", at block {progress.block:,}"
    return fmt.quantity_field(
        "Searching",
        progress.step,
        f"blocks {progress.first:,}–{progress.last:,} for the transaction that used the nonce: "
        f"step {progress.step} of about {progress.steps}{at}…",
        Tone.WAITING,
        steps=progress.steps,
        first_block=progress.first,
        last_block=progress.last,
        at_block=progress.block,
    )


def seen_fields(seen: SeenTx, now: float) -> list[Field]:
    """Return what this app kept of a transaction."""

    def when(label: str, at: float, block: int | None) -> Field:
        suffix = "" if block is None else f" (head {block:,})"
        text = f"{fmt.age(now - at)} · {fmt.utc_text(int(at))}{suffix}"
        return Field(label, text, Kind.TIME, int(at), facts=facts(head=block))

    sent = "yes" if seen.sent_here else "no (seen pending)"
    return [
        fmt.address_field("From", seen.tx.sender, seen.chain_id),
        fmt.quantity_field("Nonce", seen.tx.nonce),
        when("First seen", seen.first_seen, seen.first_block),
        when("Last seen", seen.last_seen, seen.last_block),
        fmt.boolean_field("Sent from here", seen.sent_here, sent),
    ]


def sightings_section(sightings: list[Sighting] | None) -> Section:
    """Return what the other configured networks said (looking… while they answer)."""
    if sightings is None:
        return Section("Other networks", (), note="Looking on the other configured networks…")
    if not sightings:
        return Section(
            "Other networks",
            (),
            note="No other network to ask: add one in Settings (explorer report: --also URL).",
        )
    fields = []
    for sighting in sightings:
        tx = sighting.transaction
        text = sighting.presence.value
        if sighting.presence is Presence.MINED and tx is not None:
            text += f" (block {tx.block_number or 0:,}) — open it there"
        elif sighting.presence is Presence.PENDING:
            text += " — open it there"
        elif sighting.message:
            text += f": {sighting.message}"
        tone = Tone.GOOD if sighting.found else Tone.MUTED
        more = facts(chain_id=sighting.network.chain_id, block=tx.block_number if tx else None)
        word = sighting.presence.name.lower()
        fields.append(
            Field(sighting.network.name, text, Kind.STATUS, word, sighting.where, tone, facts=more)
        )
    return Section("Other networks", tuple(fields))


def missing_document(
    tx_hash: str,
    network_name: str,
    chain_id: int,
    currency: str,
    now: float,
    *,
    seen: SeenTx | None = None,
    missing: MissingDiagnosis | None = None,
    sightings: list[Sighting] | None = None,
    progress: SearchProgress | None = None,
) -> Document:
    """Return the not-found page: what this app knows and what the other networks said."""
    found = [s for s in sightings or () if s.found]
    fate = None if missing is None else missing.fate.name.lower()
    if missing is not None:
        text, tone = "NOT FOUND — " + fate_sentence(missing, currency), Tone.WAITING
    elif seen is not None:
        text, tone = "NOT FOUND — this app saw it; reading the sender's nonces…", Tone.WAITING
    elif found:
        names = ", ".join(s.network.name for s in found)
        text, tone = f"NOT FOUND on {network_name} — found on {names}: open it there", Tone.GOOD
    else:
        text, tone = f"NOT FOUND on {network_name}", Tone.MUTED
    found_on = [s.network.chain_id for s in found]
    headline = fmt.status_field("Status", "not_found", text, tone, fate=fate, found_on=found_on)
    sections = []
    if seen is not None:
        verdict = text.removeprefix("NOT FOUND — ")
        fields = [Field("Verdict", verdict, Kind.STATUS, fate, tone=tone)]
        if missing is not None and missing.replacement is not None:
            fields.append(fmt.hash_field("Replaced by", missing.replacement.hash, Kind.TX_HASH))
        if (searching := search_field(progress)) is not None:
            fields.append(searching)
        if missing is not None and missing.fate in (Fate.QUEUED, Fate.NOT_YET_AVAILABLE):
            fields += facts_fields(missing.pending, currency, now)
        elif missing is not None and missing.fate is Fate.DROPPED:  # why it left the pool
            fields += facts_fields(missing.pending, currency, now, in_pool=False)
        sections.append(Section("What happened to it", tuple(fields)))
        sections.append(Section("Seen by this app", tuple(seen_fields(seen, now))))
    else:
        sections.append(sightings_section(sightings))
    if seen is None and not found:  # no verdict of its own: what it can mean, in general
        meanings = tuple(fmt.text_field(label, text) for label, text in NOT_FOUND_MEANINGS)
        sections.append(Section("What not found can mean", meanings))
    title = f"Transaction {tx_hash}"
    return Document(title, headline, tuple(sections), {}, chain_id, "transaction")
