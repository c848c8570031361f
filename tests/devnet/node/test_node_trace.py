"""The devnet's trace methods: served by the rskj profile with --trace only, in rskj's shapes."""

from __future__ import annotations

from typing import Any

import pytest

from explorer.chain.node_trace import from_call_tracer, from_parity, shapes, without_natives
from explorer.devnet.errors import METHOD_NOT_FOUND, RpcFailure
from explorer.devnet.node import DevnetNode
from explorer.devnet.profile import Profile, rules_for

CALL_TRACER = {"tracer": "callTracer"}


def _traced(node: DevnetNode) -> DevnetNode:
    """Return the node as a bare rskj node with its debug and trace modules on."""
    node.configure(rules_for(Profile.RSKJ, trace=True))
    return node


def _story(node: DevnetNode, key: str) -> str:
    """Return the hash of one of the inside stories."""
    value = node.manifest.inside[key]
    assert isinstance(value, str)
    return value


@pytest.mark.parametrize("profile", [Profile.SERVICE, Profile.RSKJ])
def test_trace_methods_are_not_served_without_the_switch(
    fresh_node: DevnetNode, profile: Profile
) -> None:
    """The rskj profile serves them only when switched on; the service never does."""
    fresh_node.configure(rules_for(profile, trace=profile is Profile.SERVICE))
    for method, params in (("debug_traceTransaction", ["0x" + "00" * 32, CALL_TRACER]),
                           ("trace_transaction", ["0x" + "00" * 32])):  # fmt: skip
        with pytest.raises(RpcFailure) as refused:
            fresh_node.handle(method, params)
        assert refused.value.code == METHOD_NOT_FOUND


def test_call_tracer_shapes_the_deep_call_as_rskj_does(fresh_node: DevnetNode) -> None:
    """Nested calls, quantity outputs, the top gasUsed the receipt's."""
    node = _traced(fresh_node)
    tx_hash = _story(node, "deep_call")
    answer: dict[str, Any] = node.handle("debug_traceTransaction", [tx_hash, CALL_TRACER])
    receipt = node.handle("eth_getTransactionReceipt", [tx_hash])
    assert answer["type"] == "CALL"
    assert answer["gasUsed"] == receipt["gasUsed"]
    tree = from_call_tracer(answer)
    assert tree.max_depth == 5  # the relay three deep, then the treasury, then the payee
    assert tree.gas_used == int(receipt["gasUsed"], 16)
    assert not any(len(c.get("output", "0x0")) % 2 == 0 and c["output"].startswith("0x00")
                   for c in answer["calls"])  # fmt: skip  # rskj strips leading zeros


def test_both_trace_forms_tell_the_same_tree(fresh_node: DevnetNode) -> None:
    """The callTracer tree and the flat trace_transaction list agree frame by frame."""
    node = _traced(fresh_node)
    for key in ("deep_call", "proxy_call", "create2_call", "caught_revert", "wide_call"):
        tx_hash = _story(node, key)
        nested = from_call_tracer(node.handle("debug_traceTransaction", [tx_hash, CALL_TRACER]))
        flat = from_parity(node.handle("trace_transaction", [tx_hash]))
        assert list(shapes(nested)) == list(shapes(flat)), key


def test_calls_into_the_bridge_are_left_out_as_rskj_leaves_them(fresh_node: DevnetNode) -> None:
    """Program.callToPrecompiledAddress adds no subtrace: the Bridge reads do not appear."""
    node = _traced(fresh_node)
    tree = from_call_tracer(
        node.handle("debug_traceTransaction", [_story(node, "bridge_read"), CALL_TRACER])
    )
    assert tree.calls == ()
    assert without_natives(tree) == tree


def test_an_unknown_transaction_is_an_error_or_null_as_in_rskj(fresh_node: DevnetNode) -> None:
    """CallTracer throws "No transaction info"; TraceModuleImpl answers null."""
    node = _traced(fresh_node)
    with pytest.raises(RpcFailure, match="No transaction info"):
        node.handle("debug_traceTransaction", ["0x" + "ab" * 32, CALL_TRACER])
    assert node.handle("trace_transaction", ["0x" + "ab" * 32]) is None
