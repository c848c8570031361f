"""A call decoded by the ABI of the code it ran against: a proxy's implementation at its block.

When the bundled signatures cannot decode a transaction's input, or its contract is known as a
proxy, the code is read as it stood before the transaction's block (state at N−1, as a replay
reads it): the proxy followed to its implementation then, and the call decoded with that code's
matched source or its functions recovered from bytecode. An upgrade later does not change how
an older call reads.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from explorer.chain.abi import DecodedCall, decode_call
from explorer.chain.signatures import SignatureTable
from explorer.presentation import format as fmt
from explorer.presentation.contract_facts import CodeFacts, abi_table, code_facts
from explorer.presentation.document import Field, Tone
from explorer.rpc.errors import RpcError
from explorer.rpc.wrappers import TypedCalls
from explorer.services.proxies import ProxyInfo, detect_proxy, known_proxy


@dataclass(frozen=True)
class Callee:
    """The code a call ran against and the call decoded by it."""

    address: str
    block: int  # the state the code was read at (the block before the transaction's)
    proxy: ProxyInfo | None
    code: CodeFacts | None  # the implementation's for a proxy, else the contract's own
    decoded: DecodedCall | None
    error: str = ""

    @property
    def origin(self) -> str:
        """Return where the decoding ABI came from, in words."""
        if self.code is None:
            return ""
        if self.code.source is not None:
            return f"the matched source {self.code.source.artifact.title}"
        return "functions recovered from bytecode"


async def wants_callee(
    client: TypedCalls, to: str | None, data: bytes, bundled: DecodedCall | None
) -> bool:
    """Tell whether a call is worth reading its code for (undecoded, or to a known proxy)."""
    if to is None or len(data) < 4:
        return False
    return bundled is None or await known_proxy(client, to)


async def read_callee(
    client: TypedCalls, to: str, block: int, data: bytes, tables: Sequence[SignatureTable] = ()
) -> Callee:
    """Read the code a call ran against at block and decode the call by it."""
    try:
        code = await client.get_code(to, block)
        proxy = await detect_proxy(client, to, code, block)
        if proxy is not None:
            if proxy.implementation is None:
                return Callee(to, block, proxy, None, None, proxy.note)
            code = await client.get_code(proxy.implementation, block)
        target = proxy.implementation if proxy and proxy.implementation else to
        facts = await code_facts(client, target, code, tables)
    except RpcError as error:
        return Callee(to, block, None, None, None, f"its code could not be read: {error.message}")
    decoded = decode_call(data, abi_table(facts.abi_functions))
    return Callee(to, block, proxy, facts, decoded)


def callee_fields(callee: Callee, chain_id: int) -> list[Field]:
    """Return what the call was decoded by: the proxy, the implementation and the ABI's origin."""
    then = f"at block {callee.block:,}, before this transaction's"
    if callee.error:
        text = f"not the contract's code: {callee.error}"
        return [fmt.text_field("Decoded by", text, Tone.MUTED)]
    fields = []
    proxy = callee.proxy
    if proxy is not None:
        through = f"a proxy ({proxy.kind.value}) {then}"
        word = proxy.kind.name.lower()
        fields.append(fmt.status_field("Called through", word, through, at_block=callee.block))
        label = "Implementation then"
        fields.append(fmt.address_field(label, proxy.implementation, chain_id, empty=proxy.note))
        then = ""
    if callee.code is None:
        return fields
    when = f" ({then})" if then else ""
    if callee.decoded is None:
        text = f"no function of the code has this selector ({callee.origin}){when}"
        return [*fields, fmt.text_field("Decoded by", text, Tone.MUTED)]
    target = "the implementation's" if proxy else "the contract's"
    return [*fields, fmt.text_field("Decoded by", f"{target} {callee.origin}{when}")]
