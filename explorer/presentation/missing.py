"""A transaction the node does not return: what this app kept of it, the other networks.

Shared by the transaction page and `explorer report`. A hash this app saw pending or sent is
diagnosed from the sender's nonces (services/fate.py), with the search for what used its
nonce reported step by step; a hash never seen here is looked up on the other configured
networks at once (services/elsewhere.py).
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, replace

from explorer.presentation.diagnosis_document import missing_document
from explorer.presentation.document import Document
from explorer.rpc.endpoint import Endpoint
from explorer.saved.seen import SeenStore, SeenTx, seen_by
from explorer.services.elsewhere import OtherNetworks, Sighting
from explorer.services.fate import MissingDiagnosis, diagnose_missing
from explorer.services.networks import Network
from explorer.services.reader import ChainReader
from explorer.services.replacement import SearchProgress


@dataclass
class TxSupport:
    """The support desk's collaborators, each of which may be absent.

    The local record of seen transactions, the other networks, and how to switch to one (the
    window's network choice).
    """

    store: SeenStore | None = None
    elsewhere: OtherNetworks | None = None
    switch_network: Callable[[str], None] | None = None

    async def aclose(self) -> None:
        """Close the store and the other networks' clients."""
        for closing in (self.elsewhere, self.store):
            if closing is not None:
                await closing.aclose()


@dataclass(frozen=True)
class Missing:
    """What is known so far of a transaction the node does not return."""

    tx_hash: str
    seen: SeenTx | None = None
    diagnosis: MissingDiagnosis | None = None
    sightings: list[Sighting] | None = None
    progress: SearchProgress | None = None
    complete: bool = False
    asked_for: str = ""  # for a `tx/B/N` route: "transaction N of block B"

    @property
    def keep_tracking(self) -> bool:
        """Tell whether it may still change by itself (the page looks again later)."""
        return self.diagnosis is not None and self.diagnosis.fate.still_open

    @property
    def found_elsewhere(self) -> tuple[Sighting, ...]:
        """Return the other networks that have it."""
        return tuple(s for s in self.sightings or () if s.found)

    def document(self, network: Network, now: float) -> Document:
        """Return the not-found page for this stage."""
        return missing_document(
            self.tx_hash,
            network.name,
            network.chain_id,
            network.currency,
            now,
            seen=self.seen,
            missing=self.diagnosis,
            sightings=self.sightings,
            progress=self.progress,
        )


async def missing_stages(
    reader: ChainReader,
    network: Network,
    tx_hash: str,
    support: TxSupport,
    endpoint: Endpoint | None,
    previous: Missing | None = None,
) -> AsyncIterator[Missing]:
    """Yield what is known of a missing transaction as it arrives, complete last.

    A previous diagnosis made at the same head is shown again without asking the node.
    """
    store = support.store
    seen = await store.find(network.chain_id, tx_hash, seen_by(endpoint)) if store else None
    if seen is None:
        yield Missing(tx_hash)
        sightings: list[Sighting] = []
        if support.elsewhere is not None and endpoint is not None:
            sightings = await support.elsewhere.look_up(tx_hash, endpoint)
        yield Missing(tx_hash, sightings=sightings, complete=True)
        return
    if (
        previous is not None
        and previous.diagnosis is not None
        and previous.diagnosis.pending.state.head == reader.head
    ):
        yield replace(previous, seen=seen)
        return
    yield Missing(tx_hash, seen)
    progress: asyncio.Queue[SearchProgress] = asyncio.Queue()
    diagnosing = asyncio.ensure_future(
        diagnose_missing(reader, seen, time.time(), progress.put_nowait)
    )
    try:
        while not diagnosing.done():
            step = asyncio.ensure_future(progress.get())
            await asyncio.wait([step, diagnosing], return_when=asyncio.FIRST_COMPLETED)
            if step.done():
                yield Missing(tx_hash, seen, progress=step.result())
            else:
                step.cancel()
        yield Missing(tx_hash, seen, diagnosing.result(), complete=True)
    finally:
        diagnosing.cancel()
