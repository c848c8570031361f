"""A history's estimate is a limit the run stays inside, counted as the run and the quota count.

Each run is a real search of a devnet account through a fresh client: the requests it spent
(as its own count says, and as the client's per-call count says) never pass the limit in force
(the first estimate's, then each continuation's after a pause), for accounts that only send,
only receive, are paid by contracts, or have one change.
"""

from __future__ import annotations

import asyncio
import re
from dataclasses import dataclass, field

import pytest

from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.services.address_history import AddressHistory
from explorer.services.history_plan import CONFIRM_ABOVE, Estimate, Scope
from explorer.services.reader import ChainReader
from tests.helpers.devnet import Devnet


@dataclass
class Measured:
    """A run's estimate, the limits it met, what it spent, what the client counted."""

    estimate: Estimate
    spent: int
    counted: int
    pauses: list[tuple[int, int, str]] = field(default_factory=list)  # spent, limit, text


def measure(url: str, address: str) -> Measured:
    """Run a held history to its end, going on at each pause; note the spending at each."""

    async def main() -> Measured:
        client = RpcClient(Endpoint.parse(url, allow_insecure_http=True))
        try:
            run = AddressHistory(
                ChainReader(client), address, chain="31", scope=Scope.ALL, hold=True
            )
            found = await run.prepare()
            measured = Measured(found, 0, 0)
            async for update in run.updates():
                if update.over_limit:
                    limit = run.limit.limit or 0
                    measured.pauses.append((run.requests, limit, update.over_limit))
                    await run.go_on()
                    assert (run.limit.limit or 0) > limit
            measured.spent, measured.counted = run.requests, client.stats.total
            measured.pauses.append((run.requests, run.limit.limit or 0, ""))
            return measured
        finally:
            await client.aclose()

    return asyncio.run(main())


def accounts(devnet: Devnet) -> dict[str, str]:
    """Return the accounts of every kind the devnet's history tells."""
    facts = devnet.manifest("testnet")
    counted = dict(facts["counted_accounts"])
    return {
        "busy": facts["busy_account"],
        "sender": facts["accounts"][1],
        "contract_paid": facts["contract_paid"],
        "one_change": counted[1],
        "ten_received": counted[10],
        "hundred_received": counted[100],
        "miner": facts["miners"][0],
    }


KINDS = ("busy", "sender", "contract_paid", "one_change", "ten_received", "hundred_received",
         "miner")  # fmt: skip


@pytest.mark.parametrize("kind", KINDS)
def test_the_run_stays_inside_the_estimates_limit(devnet: Devnet, kind: str) -> None:
    measured = measure(devnet.url("testnet"), accounts(devnet)[kind])
    estimate = measured.estimate
    assert measured.spent == measured.counted  # the run counts every call the client sent
    for spent, limit, _text in measured.pauses:
        assert spent <= limit, (kind, measured.pauses)
    first_limit = measured.pauses[0][1]
    assert first_limit == estimate.limit
    if len(measured.pauses) == 1:  # no pause: the first estimate held to the end
        assert measured.spent <= estimate.limit
    else:  # it paused at the first limit and said what going on would cost
        assert measured.pauses[0][0] <= estimate.limit
        assert "Going on costs about" in measured.pauses[0][2]
    assert estimate.native_reads <= estimate.expected <= estimate.limit  # no contradiction


def test_a_sender_s_estimate_is_near_what_it_spends(devnet: Devnet) -> None:
    """Where sending explains the changes, the expected cost is within a factor of two."""
    for kind in ("busy", "sender"):
        measured = measure(devnet.url("testnet"), accounts(devnet)[kind])
        expected = measured.estimate.expected
        assert expected / 2 <= measured.spent <= measured.estimate.limit, kind
        assert len(measured.pauses) == 1  # asked once, before it started


def test_a_cheap_looking_search_stops_at_a_few_hundred_and_says_why(devnet: Devnet) -> None:
    """Receiving leaves no trace in the nonce: the run started unasked stops before 300."""
    measured = measure(devnet.url("testnet"), accounts(devnet)["hundred_received"])
    assert not measured.estimate.needs_confirmation
    spent, limit, text = measured.pauses[0]
    assert spent <= limit <= CONFIRM_ABOVE
    assert re.search(r"at least [\d,]+ more ahead after [\d,]+ requests", text), text
    assert measured.spent > CONFIRM_ABOVE  # it needed more, and went on only when told


def test_the_estimate_says_its_limit_and_what_it_rests_on(devnet: Devnet) -> None:
    estimate = measure(devnet.url("testnet"), accounts(devnet)["busy"]).estimate
    text = estimate.text()
    about = re.search(r"costs about ([\d,]+) requests", text)
    most = re.search(r"stops to ask before spending more than ([\d,]+)", text)
    assert about is not None, text
    assert most is not None, text
    assert int(about[1].replace(",", "")) == estimate.expected
    assert int(most[1].replace(",", "")) == estimate.limit >= estimate.expected
