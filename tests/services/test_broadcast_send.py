"""One eth_sendRawTransaction against a scripted node: every answer read, nothing ever resent."""

from __future__ import annotations

import socket

import pytest
from eth_account import Account

from explorer.presentation.broadcast_document import answer_section
from explorer.rpc.client import RpcClient
from explorer.rpc.endpoint import Endpoint
from explorer.services.broadcast import ZERO_HASH, Answer, SendResult, send_once
from explorer.services.rawtx import SignedTx, decode_signed
from explorer.services.reader import ChainReader
from tests.helpers.rpc import FAST_RETRY, run
from tests.helpers.scripted_server import Action, ScriptedServer, drop, result, rpc_error

KEY = "0x" + "4c" * 32


def transfer() -> SignedTx:
    """Return a signed transfer for chain 31."""
    fields = {
        "nonce": 3,
        "gasPrice": 66_000_000,
        "gas": 21_000,
        "to": "0x" + "11" * 20,
        "value": 1,
        "data": b"",
        "chainId": 31,
    }
    raw = Account.from_key(KEY).sign_transaction(fields).raw_transaction
    decoded = decode_signed("0x" + bytes(raw).hex())
    assert isinstance(decoded, SignedTx)
    return decoded


def send_to(url: str, tx: SignedTx) -> SendResult:
    """Send once through a client with fast retries, as the app would."""

    async def main() -> SendResult:
        client = RpcClient(Endpoint.parse(url), retry=FAST_RETRY)
        try:
            return await send_once(ChainReader(client), tx)
        finally:
            await client.aclose()

    return run(main())


def answered(action: Action) -> tuple[SendResult, ScriptedServer]:
    """Send to a node that answers the send with action; return the result and the node."""
    server = ScriptedServer()
    server.script(action)
    try:
        return send_to(server.url, transfer()), server
    finally:
        server.close()


def sends(server: ScriptedServer) -> int:
    """Return how many eth_sendRawTransaction requests arrived."""
    return server.rpc_methods.count("eth_sendRawTransaction")


def test_the_decoded_hash_back_is_accepted() -> None:
    tx = transfer()
    sent, server = answered(result(tx.hash))
    assert sent.answer is Answer.ACCEPTED
    assert sends(server) == 1
    assert server.requests[0].params == ["0x" + tx.raw.hex()]


def test_the_zero_hash_is_accepted_later_and_followed_by_the_decoded_hash() -> None:
    sent, _ = answered(result(ZERO_HASH))
    assert sent.answer is Answer.ACCEPTED_LATER
    assert sent.in_flight
    text = answer_section(sent).fields[0].text
    assert "accepted but not yet available" in text
    assert sent.tx.hash in text


def test_another_hash_back_is_said() -> None:
    other = "0x" + "99" * 32
    sent, _ = answered(result(other))
    assert sent.answer is Answer.OTHER_HASH
    assert other in answer_section(sent).fields[0].text


@pytest.mark.parametrize(
    ("code", "words", "human"),
    [
        (-32010, "transaction nonce too low", "the nonce is already used"),
        (-32010, "insufficient funds", "cannot pay"),
        (-32010, "transaction's gas price lower than block's minimum", "below the minimum"),
        (-32602, "Invalid chainId: 30", "another network"),
    ],
)
def test_a_refusal_is_shown_as_the_node_said_it(code: int, words: str, human: str) -> None:
    sent, server = answered(rpc_error(code, words, status=400 if code == -32602 else 200))
    assert sent.answer is Answer.REFUSED
    assert not sent.in_flight
    assert sends(server) == 1
    text = answer_section(sent).fields[0].text
    assert text.startswith(f"refused: {words} (node error {code})")
    assert human in text


def test_a_connection_dropped_after_sending_is_never_resent() -> None:
    sent, server = answered(drop())
    assert sent.answer is Answer.UNKNOWN
    assert sent.in_flight  # it may have arrived: followed by its hash
    assert sends(server) == 1
    text = answer_section(sent).fields[0].text
    assert "may have arrived" in text
    assert "not sent again" in text


def test_a_node_that_cannot_be_reached_got_nothing() -> None:
    with socket.socket() as unused:
        unused.bind(("127.0.0.1", 0))
        port = unused.getsockname()[1]
    sent = send_to(f"http://127.0.0.1:{port}", transfer())
    assert sent.answer is Answer.NOT_SENT
    assert not sent.in_flight
    assert answer_section(sent).fields[0].text.startswith("not sent:")
