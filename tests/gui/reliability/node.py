"""A testnet-like node that misbehaves on demand: one mode at a time, switched by the test."""

from __future__ import annotations

import enum
import json
import threading
from collections.abc import Callable
from typing import Any

from tests.helpers.scripted_server import (
    Action,
    AlternatingChain,
    Recorded,
    Reply,
    ScriptedServer,
    dies_mid_body,
    drop,
    echo_path,
    html,
    json_reply,
    never,
    raw,
    result,
    slow,
)
from tests.helpers.testnet import load
from tests.helpers.testnet_node import serve_testnet

BLOCK = load("block-0x1b4-header-only.json")
MINER = BLOCK["miner"][2:]  # chain data no unverified screen may show (any letter case)
BLOCK_HASH_MARK = BLOCK["hash"][2:18]
TX_BLOCK_MARK = "89d446b103322c8f"
CHAIN_MARKS = (MINER, BLOCK_HASH_MARK, TX_BLOCK_MARK)
RETRY_AFTER_SECONDS = 4


class Mode(enum.Enum):
    """How the node answers every request."""

    GOOD = "answers like a testnet node"
    AUTH = "401, its reason phrase echoing the path"
    RATE_LIMITED = "429 forever"
    RETRY_AFTER = "429 forever, asking to wait RETRY_AFTER_SECONDS (Retry-After)"
    HTML_502 = "an HTML 502 page"
    NOT_JSON = "a body that is not JSON"
    WRONG_ID = "answers with the wrong id"
    ECHO_PATH = "a JSON-RPC error echoing the request path"
    ECHO_UPPER = "a JSON-RPC error echoing the request path in upper case"
    ECHO_LOWER = "a JSON-RPC error echoing the request path in lower case"
    ECHO_ENCODED = "a JSON-RPC error echoing the request path %-encoded, hex digits in lower case"
    NEVER = "accepts and never answers"
    MID_BODY = "answers, then dies mid-body"
    DOWN = "drops every connection"
    OTHER_CHAIN = "serves chain 30"
    OTHER_GENESIS = "serves another chain with chain id 31 (another genesis block)"
    FLIPPING = "changes chain id between requests"
    SLOW = "answers like a testnet node, a third of a second late"
    RELABELLED = "serves the same blocks, but reports chain id 30 and another genesis block"


def block_hash(chain: int, number: int) -> str:
    """Return the hash of a chain's block (chain 0: the node's own; others differ throughout)."""
    return f"0x{chain:02x}{number:062x}"


def forked(fork: tuple[int, int] | None) -> Callable[[int], int]:
    """Return the mark of each height's block: 0, or fork's mark from its height up."""
    return lambda number: fork[1] if fork is not None and number >= fork[0] else 0


def numbered_block(marks: Callable[[int], int], number: int) -> dict[str, Any]:
    """Return the sample block renumbered, linked to its parent, hashed by its height's mark."""
    parent = block_hash(marks(number - 1), number - 1) if number else "0x" + "00" * 32
    block = {**BLOCK, "number": hex(number), "hash": block_hash(marks(number), number)}
    block["parentHash"] = parent
    return block


def serve_chain(
    chain_id: int, mark: int, genesis_mark: int | None = None, fork: tuple[int, int] | None = None
) -> Action:
    """Answer like the testnet samples as chain_id; any block number is the sample renumbered.

    Blocks link by parent hash; mark makes another chain's hashes (its genesis included, unless
    genesis_mark gives block 0 another); fork (height, mark) replaces the blocks from height up.
    """
    marks = forked(fork) if mark == 0 else (lambda number: mark)

    def act(request: Recorded) -> Reply:
        if request.rpc_method == "eth_chainId":
            return result(hex(chain_id))(request)
        if request.rpc_method == "net_version":
            return result(str(chain_id))(request)
        if request.rpc_method == "eth_getBlockByNumber" and request.params[0] != "0x1b4":
            tag = request.params[0]
            number = 0x2EC6B8 if tag in ("latest", "pending") else int(tag, 16)
            block = numbered_block(marks, number)
            if number == 0 and genesis_mark is not None:
                block["hash"] = block_hash(genesis_mark, 0)
            return json_reply({"jsonrpc": "2.0", "id": request.rpc_id, "result": block})
        return serve_testnet(request)

    return act


def batched(action: Action, request: Recorded) -> Reply:
    """Answer a JSON-RPC batch call by call with action (a single call as it is)."""
    calls = request.json
    if not isinstance(calls, list):
        return action(request)
    answers = []
    for call in calls:
        one = Recorded(request.method, request.path, request.headers, json.dumps(call).encode())
        answers.append(json.loads(action(one).body))
    return json_reply(answers)


serve_blocks = serve_chain(31, 0)
serve_chain_30 = serve_chain(30, 0x1E)


def not_json(request: Recorded) -> Reply:
    """Answer 200 with a body that is not JSON."""
    return Reply(200, b"<<not json>>", {"Content-Type": "application/json"})


ACTIONS: dict[Mode, Action] = {
    Mode.GOOD: serve_blocks,
    Mode.AUTH: lambda request: raw(401, "no", reason=f"Unauthorized {request.path}")(request),
    Mode.RATE_LIMITED: raw(429),
    Mode.RETRY_AFTER: raw(429, headers={"Retry-After": str(RETRY_AFTER_SECONDS)}),
    Mode.HTML_502: html(502),
    Mode.NOT_JSON: not_json,
    Mode.WRONG_ID: lambda request: result("0x1f", id_shift=7)(request),
    Mode.ECHO_PATH: echo_path(),
    Mode.ECHO_UPPER: echo_path(form=str.upper),
    Mode.ECHO_LOWER: echo_path(form=str.lower),
    Mode.ECHO_ENCODED: echo_path(form=lambda path: "".join(f"%{ord(c):02x}" for c in path)),
    Mode.NEVER: never(),
    Mode.MID_BODY: dies_mid_body(serve_blocks),
    Mode.DOWN: drop(),
    Mode.OTHER_CHAIN: serve_chain_30,
    Mode.OTHER_GENESIS: serve_chain(31, 0xEE),
    Mode.SLOW: slow(0.3, serve_blocks),
    Mode.RELABELLED: serve_chain(30, 0, genesis_mark=0x1E),
}


class SwitchableNode:
    """A scripted server whose behaviour the test switches; it counts what it was asked."""

    def __init__(self, mode: Mode = Mode.GOOD, port: int = 0) -> None:
        """Serve in mode on a free port (or the given one)."""
        self.mode = mode
        self.flipping = AlternatingChain(serve_blocks)
        self.held: frozenset[str] = frozenset()  # methods that wait for the gate
        self.held_target: str | None = None  # only for this first parameter, when set
        self.latency = 0.0  # seconds every answer takes
        self.head: str | None = None  # what eth_blockNumber answers instead, when set
        self.echo_path = False  # web3_clientVersion repeats the request's path (the key)
        self.takes_batches = False  # answer JSON-RPC batches call by call (else refuse them)
        self.fork: tuple[int, int] | None = None  # (height, mark): blocks replaced from there
        self.gate = threading.Event()
        self._lock = threading.Lock()
        self.server = ScriptedServer(self._answer, port=port)

    @property
    def url(self) -> str:
        """Return the base URL (the key goes after it)."""
        return self.server.url

    def _answer(self, request: Recorded) -> Reply:
        """Answer in the current mode (a held method first waits for the gate)."""
        held_here = self.held_target is None or request.params[:1] == [self.held_target]
        if request.rpc_method in self.held and held_here:
            while not (self.gate.wait(0.05) or self.server.closing.is_set()):
                pass
        if self.latency:
            self.server.closing.wait(self.latency)
        with self._lock:
            mode, head, fork = self.mode, self.head, self.fork
        if self.takes_batches and isinstance(request.json, list):
            return batched(self._answer, request)
        if head is not None and request.rpc_method == "eth_blockNumber":
            return result(head)(request)
        if self.echo_path and request.rpc_method == "web3_clientVersion":
            return result(f"RskJ/6.2.0/Linux{request.path}")(request)
        if mode is Mode.FLIPPING:
            return self.flipping(request)
        if mode is Mode.GOOD and fork is not None:
            return serve_chain(31, 0, fork=fork)(request)
        return ACTIONS[mode](request)

    def switch(self, mode: Mode) -> None:
        """Answer every later request in another mode."""
        with self._lock:
            self.mode = mode

    def reorganise(self, height: int, mark: int) -> None:
        """Replace every block from height up with another branch's (hashes marked mark)."""
        with self._lock:
            self.fork = (height, mark)

    def hold(self, *methods: str, target: str | None = None) -> None:
        """Make requests of these methods (about target only, when given) wait until release()."""
        self.gate.clear()
        self.held = frozenset(methods)
        self.held_target = target

    def release(self) -> None:
        """Let held requests be answered."""
        self.gate.set()

    def asked(self, method: str, target: str | None = None) -> int:
        """Return how many requests of method (about target, when given) arrived."""
        return sum(
            1
            for request in self.server.requests
            if request.rpc_method == method and (target is None or request.params[:1] == [target])
        )

    def close(self) -> None:
        """Stop serving (hanging and held answers end)."""
        self.gate.set()
        self.server.close()
