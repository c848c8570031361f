"""rskj's trace methods on the devnet's rskj profile, when started with `--trace`.

rskj ships its debug and trace modules disabled (reference.conf `rpc.modules`); a node that
enables them answers `debug_traceTransaction` (tracer `callTracer`: CallTracer and
CallTraceTransformer) and `trace_transaction` (TraceModuleImpl, TraceTransformer). The devnet
runs the block again up to the transaction with a recorder (Engine.trace) and answers in
rskj's shapes, its quirks included: calls into precompiled and native contracts are left out
(Program.callToPrecompiledAddress adds no subtrace), the top frame's gasUsed is the receipt's,
callTracer's outputs are quantities (leading zeros stripped), every creation is "CREATE", and
trace_transaction repeats the transaction's input for each internal call.
"""

from __future__ import annotations

from typing import Any

from eth.abc import SignedTransactionAPI
from eth_typing import Address

from explorer.chain.hexutil import to_data, to_quantity
from explorer.devnet import params
from explorer.devnet.blockdata import TxRecord
from explorer.devnet.chainview import ChainView
from explorer.devnet.errors import INVALID_PARAMS, RpcFailure
from explorer.devnet.evm import DevnetVM
from explorer.devnet.shapes import Json
from explorer.vm.frames import Frame

CALL_TRACER = "callTracer"


def _hex_address(value: bytes) -> str:
    """Return an address as rskj writes it."""
    return "0x" + value.hex()


def _quantity_data(value: bytes) -> str:
    """Return bytes as rskj's HexUtils.toQuantityJsonHex writes them: leading zeros gone."""
    return to_quantity(int.from_bytes(value, "big")) if value else "0x0"


def _kept(frame: Frame) -> list[Frame]:
    """Return a frame's calls as rskj traces them: without precompiled and native contracts."""
    return [child for child in frame.children if child.native is None]


def call_tracer(frame: Frame, top_gas_used: int | None = None) -> Json:
    """Return one frame and its calls as rskj's callTracer shapes them."""
    created = frame.kind in ("CREATE", "CREATE2")
    item: Json = {
        "type": "CREATE" if created else frame.kind,
        "from": _hex_address(frame.sender),
        "value": to_quantity(frame.value),
        "gas": to_quantity(frame.gas),
        "gasUsed": to_quantity(frame.gas_used if top_gas_used is None else top_gas_used),
        "input": to_data(frame.input),
    }
    if created:
        item["output"] = _hex_address(frame.to)
    else:
        item["to"] = _hex_address(frame.to)
        item["output"] = _quantity_data(frame.output)
    if frame.reverted:
        item["error"] = "execution reverted"
    elif frame.error is not None:
        item["error"] = frame.error
    calls = [call_tracer(child) for child in _kept(frame)]
    if calls:
        item["calls"] = calls
    return item


def parity_traces(
    frame: Frame, where: dict[str, Any], top_input: bytes, top_gas_used: int
) -> list[Json]:
    """Return a frame and its calls as rskj's trace_transaction lists them."""
    found: list[Json] = []

    def visit(each: Frame, path: list[int]) -> None:
        kept = _kept(each)
        created = each.kind in ("CREATE", "CREATE2")
        action: Json = {"from": _hex_address(each.sender), "gas": to_quantity(each.gas),
                        "value": to_quantity(each.value)}  # fmt: skip
        if created:
            action["init"] = to_data(each.input)
            if path:
                action["creationMethod"] = each.kind.lower()
        elif each.kind == "SELFDESTRUCT":
            action = {"address": _hex_address(each.sender), "balance": to_quantity(each.value),
                      "refundAddress": _hex_address(each.to)}  # fmt: skip
        else:
            action["callType"] = each.kind.lower()
            action["to"] = _hex_address(each.to)
            action["input"] = to_data(top_input)  # rskj: the transaction's input, every time
        gas_used = top_gas_used if not path else each.gas_used
        result: Json | None = (
            {"gasUsed": to_quantity(gas_used), "address": _hex_address(each.to),
             "code": to_data(each.output)} if created
            else {"gasUsed": to_quantity(gas_used), "output": to_data(each.output)}
        )  # fmt: skip
        kind = "create" if created else "suicide" if each.kind == "SELFDESTRUCT" else "call"
        error = "Reverted" if each.reverted else each.error
        entry: Json = {**where, "action": action, "type": kind, "subtraces": len(kept),
                       "traceAddress": list(path), "result": None if error else result}  # fmt: skip
        if error:
            entry["error"] = error
        found.append(entry)
        for position, child in enumerate(kept):
            visit(child, [*path, position])

    visit(frame, [])
    return found


def _signed(record: TxRecord) -> SignedTransactionAPI:
    """Return a recorded transaction as py-evm's signed transaction again."""
    builder = DevnetVM.get_transaction_builder()
    return builder.new_transaction(record.nonce, record.gas_price, record.gas,
                                   Address(record.to or b""), record.value, record.data,
                                   record.v, record.r, record.s)  # fmt: skip


class TraceMethods(ChainView):
    """The trace methods of the rskj profile (served when the node's rules enable them)."""

    def _recorded(self, tx_hash: Any) -> tuple[Frame, Any, int] | None:
        """Return a mined transaction's top frame, its location and receipt gas, or None."""
        wanted = params.block_hash(tx_hash, "transaction hash")
        location = self._ledger.tx_locations.get(wanted)
        if location is None:
            return None
        block = self._ledger.blocks[location.number]
        signed = [_signed(record) for record in block.transactions]
        recorder = self._ledger.engine.trace(location.number, signed, location.index)
        if recorder.top is None:
            return None
        return recorder.top, location, block.receipts[location.index].gas_used

    def _m_debug_traceTransaction(self, args: list[Any]) -> Json | None:
        """Trace a transaction with the callTracer (rskj's only other tracer is not served)."""
        tx_hash, options = args
        tracer = options.get("tracer") if isinstance(options, dict) else None
        if tracer != CALL_TRACER:
            raise RpcFailure(INVALID_PARAMS, f"the devnet serves the {CALL_TRACER} only")
        found = self._recorded(tx_hash)
        if found is None:
            raise RpcFailure(INVALID_PARAMS, f"No transaction info for {tx_hash}")
        top, _location, gas_used = found
        return call_tracer(top, gas_used)

    def _m_trace_transaction(self, args: list[Any]) -> list[Json] | None:
        """Trace a transaction Parity's way, as a flat list."""
        (tx_hash,) = args
        found = self._recorded(tx_hash)
        if found is None:
            return None
        top, location, gas_used = found
        block = self._ledger.blocks[location.number]
        where = {
            "blockHash": to_data(block.hash),
            "blockNumber": block.number,
            "transactionHash": to_data(block.transactions[location.index].hash),
            "transactionPosition": location.index,
        }
        return parity_traces(top, where, top.input, gas_used)
