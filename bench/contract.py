"""Issue 32's goals at 100 ms: a contract page with proxy detection, recovery CPU, a warm revisit.

- Round trips of a contract page against today's page (balance, nonce and code, then the token
  facts): the summary with proxy detection, then the contract tab's facts (implementation code,
  upgrade logs), for each seeded proxy kind and a plain contract. Goal: ≤ 1 extra round trip.
  Round trips are counted as the waves of requests the page sends (a request sent while
  another is out joins its wave), timed against the devnet answering 100 ms late.
- CPU time of recovering a 24 KB contract's functions (bench/contract-24k.json, 24,350 bytes,
  206 functions), against evmole alone. Goal: ≤ 100 ms.
- A warm revisit of each contract at a settled block, on a session with saved data: requests.
  Goal: 0.
- Recovered selectors against each devnet contract's ABI: found, mutability, argument types.
"""

from __future__ import annotations

import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import evmole

sys.path.insert(0, str(Path(__file__).resolve().parent))
from views import running_devnet  # bench/views.py

from explorer.chain.abi_input import parse_abi
from explorer.chain.recovered import recover_functions
from explorer.devnet.contracts import ARTIFACT_FILES
from explorer.presentation.address_document import AddressFacts, load_address_facts
from explorer.presentation.contract_facts import load_contract
from explorer.rpc import journal
from explorer.rpc.endpoint import Endpoint
from explorer.rpc.params import BlockSelector
from explorer.saved.directory import CacheDirectory
from explorer.services.networks import DEVNET
from explorer.services.session import Session
from explorer.services.tokens import TokenReader

LATENCY = 0.1
ROUND_TRIP_GOAL = 1
CPU_GOAL = 0.100
BIG = Path(__file__).resolve().parent / "contract-24k.json"
KINDS = (("EIP-1967", "proxy"), ("beacon", "beacon_proxy"), ("UUPS", "uups_proxy"),
         ("clone", "clones"), ("plain (Notary)", "notary"))  # fmt: skip


class Waves:
    """Counts the waves of requests: a request sent while none is out starts a new wave."""

    def __init__(self) -> None:
        self.out = 0
        self.waves = 0
        self.requests = 0


async def counted(session: Session, work: Any) -> tuple[int, int, float]:
    """Run work; return (round trips, requests, seconds).

    The round trips are the waves of requests (time at 100 ms on a shared machine is printed,
    not counted: the devnet's own work stretches a wave).
    """
    waves = Waves()
    client = session.client
    original = client._shared  # every request the node is asked passes here, once

    async def shared(method: str, params_json: str) -> Any:
        if waves.out == 0:
            waves.waves += 1
        waves.out += 1
        waves.requests += 1
        try:
            return await original(method, params_json)
        finally:
            waves.out -= 1

    client._shared = shared  # type: ignore[method-assign]
    started = time.perf_counter()
    try:
        await work
    finally:
        client._shared = original  # type: ignore[method-assign]
    seconds = time.perf_counter() - started
    return waves.waves, waves.requests, seconds


async def todays_page(session: Session, address: str, block: BlockSelector) -> None:
    """Read what the summary read before issue 32: balance, nonce and code, then token facts."""
    client = session.client
    _b, _n, code = await asyncio.gather(
        client.get_balance(address, block),
        client.get_transaction_count(address, block),
        client.get_code(address, block),
    )
    if code:
        await TokenReader(client).token_info(address, block)


async def contract_page(session: Session, address: str, block: BlockSelector) -> AddressFacts:
    """Read the summary with proxy detection."""
    return await load_address_facts(session.reader, address, block)


async def whole_page(session: Session, address: str, block: BlockSelector) -> None:
    """Read the summary, then the contract tab's facts from it (as the page does)."""
    facts = await contract_page(session, address, block)
    await load_contract(
        session.client, address, block, code=facts.code, proxy=facts.proxy, proxy_known=True
    )


async def round_trips(url: str, proxies: dict[str, Any], block: int) -> list[str]:
    """Print the round trips of each kind of page; return the misses of the goal."""
    misses = []
    print(
        f"Round trips at {LATENCY * 1000:.0f} ms (a cold session each; goal ≤ "
        f"{ROUND_TRIP_GOAL} extra):"
    )
    for label, key in KINDS:
        address = proxies[key][0] if key == "clones" else proxies[key]
        row = []
        for work in (todays_page, contract_page, whole_page):
            session = Session(DEVNET, Endpoint.parse(url))
            await session.settled_check()
            row.append(await counted(session, work(session, address, block)))
            await session.aclose()
        (today, t_req, _), (summary, s_req, _), (whole, w_req, secs) = row
        extra = whole - today
        for what, more in (("detection", summary - today), ("the tab's facts", extra)):
            if more > ROUND_TRIP_GOAL:
                misses.append(f"{label} with {what}: +{more}, missed by {more - ROUND_TRIP_GOAL}")
        print(
            f"  {label:15} today {today} RT ({t_req} req) · with detection {summary} RT "
            f"({s_req} req, +{summary - today}) · with the tab's facts {whole} RT ({w_req} req, "
            f"+{extra}, {secs * 1000:.0f} ms)"
        )
    return misses


async def warm(url: str, proxies: dict[str, Any], block: int) -> int:
    """Read every page twice at a settled block with saved data; return the second's requests."""
    with tempfile.TemporaryDirectory() as root:
        total = 0
        for visit in (1, 2):
            session = Session(DEVNET, Endpoint.parse(url), saved=CacheDirectory(Path(root)))
            await session.settled_check()
            await session.reader.latest_number()  # the saved data knows what has settled
            spending = journal.Spending()
            with journal.counting(spending):
                for _label, key in KINDS:
                    address = proxies[key][0] if key == "clones" else proxies[key]
                    await whole_page(session, address, block)
            if session.cache is not None and session.cache.store is not None:
                await session.cache.store.flush()
            await session.aclose()
            print(f"  visit {visit}: {spending.text()}")
            total = spending.requests
        return total


def recovery_cpu() -> float:
    """Print and return the median CPU seconds of recovering the 24 KB contract's functions."""
    data = json.loads(BIG.read_text(encoding="utf-8"))
    code = bytes.fromhex(data["deployedBytecode"][2:])
    ours, bare = [], []
    for _ in range(7):
        started = time.process_time()
        functions = recover_functions(code)
        ours.append(time.process_time() - started)
        started = time.process_time()
        evmole.contract_info(code, selectors=True, arguments=True, state_mutability=True)
        bare.append(time.process_time() - started)
    expected = {f.selector for f in parse_abi(json.dumps(data["abi"]))}
    found = {f.selector for f in functions}
    median, baseline = statistics.median(ours), statistics.median(bare)
    print(
        f"Recovery of a {len(code):,}-byte contract: {median * 1000:.1f} ms CPU "
        f"(evmole alone {baseline * 1000:.1f} ms, ratio {median / baseline:.2f}×; goal ≤ "
        f"{CPU_GOAL * 1000:.0f} ms); {len(found & expected)}/{len(expected)} functions found"
    )
    return median


def selector_numbers() -> None:
    """Print recovered selectors against each devnet contract's ABI."""
    total = found = mutability = arguments = 0
    for path in ARTIFACT_FILES:
        for contract in json.loads(path.read_text(encoding="utf-8"))["contracts"].values():
            code = bytes.fromhex(contract["deployedBytecode"][2:])
            recovered = {f.selector: f for f in recover_functions(code)}
            for function in parse_abi(json.dumps(contract["abi"])):
                total += 1
                if (hit := recovered.get(function.selector)) is None:
                    continue
                found += 1
                mutability += hit.mutability == function.mutability
                arguments += hit.arguments == tuple(p.type for p in function.inputs)
    print(
        f"Recovered against the devnet's ABIs: {found}/{total} functions found, mutability "
        f"exact {mutability}/{total}, argument types exact {arguments}/{total}"
    )


async def main() -> None:
    """Run the devnet at 100 ms and measure."""
    async with running_devnet(LATENCY) as (url, manifest):
        proxies = dict(manifest["proxies"])
        block = int(manifest["head_at_build"]) - 20  # settled: its reads are kept
        misses = await round_trips(url, proxies, block)
        print("Warm revisit at a settled block, saved data (goal 0 requests):")
        warm_requests = await warm(url, proxies, block)
    median = recovery_cpu()
    selector_numbers()
    print(
        f"Goals: round trips {'; '.join(misses) or 'met'}; recovery CPU "
        f"{'met' if median <= CPU_GOAL else 'MISSED'}; warm "
        f"{'met' if warm_requests == 0 else f'MISSED by {warm_requests} requests'}"
    )


if __name__ == "__main__":
    asyncio.run(main())
