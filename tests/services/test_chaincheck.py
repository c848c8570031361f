"""The session's chain check: retried until the node answers, repeated after a transport failure."""

from __future__ import annotations

import asyncio
from collections.abc import Callable

from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import ErrorKind, RpcError
from explorer.rpc.retry import NO_RETRY
from explorer.services.chaincheck import ChainCheck, Verification
from explorer.services.networks import MAINNET, MAINNET_GENESIS, TESTNET
from explorer.services.session import Session
from tests.helpers.rpc import API_KEY
from tests.helpers.scripted_server import (
    AlternatingChain,
    Recorded,
    Reply,
    ScriptedServer,
    drop,
    json_reply,
)
from tests.helpers.testnet_node import genesis_block, serve_testnet

FAST = (0.01, 0.02, 0.04)


class Flaky:
    """A testnet node (chain 31) that drops every request while `down` is set."""

    def __init__(self) -> None:
        self.down = True

    def __call__(self, request: Recorded) -> Reply:
        """Drop the connection, or answer like the testnet samples."""
        return drop()(request) if self.down else serve_testnet(request)


def session_on(server: ScriptedServer) -> Session:
    """Return a Mainnet session (chain 30 expected) on the scripted server, retrying fast."""
    session = Session(MAINNET, Endpoint.parse(f"{server.url}/{API_KEY}"), check_delays=FAST)
    session.client.retry = NO_RETRY
    return session


async def until(condition: Callable[[], bool], timeout: float = 5.0) -> None:
    """Wait until condition holds."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "timed out"
        await asyncio.sleep(0.01)


def test_a_node_that_recovers_on_another_chain_is_a_mismatch_not_the_chosen_network() -> None:
    """Unreachable at start, then serving chain 31 for a chain-30 network: never verified."""
    flaky = Flaky()
    server = ScriptedServer(flaky)
    seen: list[ChainCheck] = []

    async def main() -> None:
        session = session_on(server)
        session.checker.listen(seen.append)
        session.verify()
        await until(lambda: session.check.verification is Verification.UNREACHABLE)
        assert session.check.error_kind is ErrorKind.TRANSPORT
        assert session.check.retry_in() is not None
        flaky.down = False
        await until(lambda: session.check.settled)
        assert session.check.verification is Verification.MISMATCH
        assert session.check.chain_id == 31
        assert session.check.net_version == "31"
        await session.aclose()

    try:
        asyncio.run(main())
    finally:
        server.close()
    states = [check.verification for check in seen]
    assert Verification.VERIFIED not in states
    assert states[0] is Verification.CHECKING
    assert states[-1] is Verification.MISMATCH
    assert max(check.attempt for check in seen) >= 2  # it kept trying


def test_a_transport_failure_after_verification_checks_the_chain_again() -> None:
    """The node behind a URL can change: a failed request makes the check run again."""
    answers = {"chain": "0x1e", "net": "30"}

    def node(request: Recorded) -> Reply:
        if request.rpc_method == "eth_chainId":
            return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": answers["chain"]})
        if request.rpc_method == "net_version":
            return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": answers["net"]})
        if request.rpc_method == "eth_blockNumber" and answers["chain"] == "0x1f":
            return drop()(request)
        if request.params[:1] == ["0x0"] and answers["chain"] == "0x1e":
            block = genesis_block(MAINNET_GENESIS)  # a mainnet node has mainnet's genesis
            return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": block})
        return serve_testnet(request)

    server = ScriptedServer(node)

    async def main() -> None:
        session = session_on(server)
        session.verify()
        await until(lambda: session.check.settled)
        assert session.check.verified
        answers.update(chain="0x1f", net="31")  # another node now answers at the same URL
        try:
            await session.reader.latest_number()
        except RpcError as error:
            assert error.kind is ErrorKind.TRANSPORT
        await until(lambda: session.check.verification is Verification.MISMATCH)
        await session.aclose()

    try:
        asyncio.run(main())
    finally:
        server.close()


def test_a_node_whose_chain_id_changes_between_requests_is_caught_at_the_next_check() -> None:
    """Chain 31 at the first check, 30 at the next (after a dropped request): a mismatch."""
    alternating = AlternatingChain(serve_testnet, (31, 30))
    server = ScriptedServer(alternating)

    async def main() -> None:
        session = Session(TESTNET, Endpoint.parse(f"{server.url}/{API_KEY}"), check_delays=FAST)
        session.client.retry = NO_RETRY
        session.verify()
        await until(lambda: session.check.settled)
        assert session.check.verified
        server.script(drop())  # the node goes away for one request
        try:
            await session.reader.latest_number()
        except RpcError as error:
            assert error.kind is ErrorKind.TRANSPORT
        await until(lambda: session.check.verification is Verification.MISMATCH)
        assert session.check.chain_id == 30
        await session.aclose()

    try:
        asyncio.run(main())
    finally:
        server.close()
