"""What each tool shows for its inputs: result lines computed locally (no requests)."""

from __future__ import annotations

import enum
from collections.abc import Callable, Mapping
from dataclasses import dataclass

from explorer.chain.abi import DecodedCall, DecodedEvent, decode_call, decode_log
from explorer.chain.abi_input import AbiInputError
from explorer.chain.checksum import to_checksum_address
from explorer.chain.hexutil import HexFormatError
from explorer.chain.signatures import SignatureSyntaxError, SignatureTable
from explorer.chain.tools import (
    UNITS,
    HashInput,
    abi_table,
    checksum_forms,
    convert_amount,
    encode_call,
    function_signature,
    keccak_hex,
    keccak_input,
    lookup,
)
from explorer.presentation.document import Tone
from explorer.services.networks import chain_name


class ToolKind(enum.Enum):
    """The tools of the Tools menu (the value is the route's target)."""

    KECCAK = "keccak"
    UNITS = "units"
    CHECKSUM = "checksum"
    ABI_ENCODE = "abi-encode"
    ABI_DECODE = "abi-decode"
    SELECTOR = "selector"


@dataclass(frozen=True)
class ToolInput:
    """One input of a tool: a line, a box of lines, or a choice."""

    key: str
    label: str
    placeholder: str = ""
    multiline: bool = False
    choices: tuple[str, ...] = ()


@dataclass(frozen=True)
class ResultLine:
    """One labelled line of a tool's result."""

    label: str
    text: str
    tone: Tone = Tone.NORMAL


Values = Mapping[str, str]
ENCODE_ARGUMENTS_EXAMPLE = "0x5aAeb6053F3e94c9b9A09F33669435E7EF1BEaEd\n1000"
#: The amounts the Units tool suggests; each works in its default unit (tests check).
UNITS_EXAMPLES = ("1.5", "21,000")
Result = tuple[ResultLine, ...]


@dataclass(frozen=True)
class ToolSpec:
    """A tool: its title, inputs (the first takes text from the search box), and results."""

    title: str
    inputs: tuple[ToolInput, ...]
    compute: Callable[[Values, int | None], Result]
    note: str = ""


def _error(error: Exception) -> Result:
    """Return a result of one line saying what is wrong with the input."""
    return (ResultLine("Cannot compute", str(error), Tone.BAD),)


def keccak_result(values: Values, chain_id: int | None) -> Result:
    """Return the local Keccak-256 of the input read as text or hex."""
    try:
        data, read_as = keccak_input(values.get("input", ""), HashInput(values.get("mode", "auto")))
    except ValueError as error:
        return _error(error)
    how = "UTF-8 text" if read_as is HashInput.TEXT else "hex"
    return (
        ResultLine("Read as", f"{how}, {len(data):,} bytes"),
        ResultLine("Keccak-256 (computed here)", keccak_hex(data)),
    )


def units_result(values: Values, chain_id: int | None) -> Result:
    """Return an amount in wei, gwei and RBTC, exactly."""
    amount = values.get("amount", "").strip()
    if not amount:
        hint = "type an amount, e.g. " + " or ".join(UNITS_EXAMPLES)
        return (ResultLine("Amount", hint, Tone.MUTED),)
    try:
        converted = convert_amount(amount, values.get("unit", "RBTC"))
    except ValueError as error:
        return _error(error)
    return tuple(ResultLine(unit, converted[unit]) for unit in UNITS)


def checksum_result(values: Values, chain_id: int | None) -> Result:
    """Return the address's checksum forms and which one the typed letter case matches."""
    try:
        forms = checksum_forms(values.get("address", ""))
    except HexFormatError:
        return _error(ValueError("an address is 40 hex digits, with or without 0x"))
    lines = [
        ResultLine("Lower case", forms.lower),
        ResultLine("EIP-55 (Ethereum)", forms.eip55),
        *(
            ResultLine(f"EIP-1191 chain {chain} ({chain_name(chain)})", text)
            for chain, text in forms.eip1191.items()
        ),
    ]
    if forms.single_case:
        verdict = ResultLine("Typed letter case", "one case: it claims no checksum", Tone.MUTED)
    elif forms.matches:
        verdict = ResultLine("Typed letter case", "matches " + ", ".join(forms.matches), Tone.GOOD)
    else:
        verdict = ResultLine(
            "Typed letter case", "matches no checksum: check the address for a typo", Tone.BAD
        )
    return (*lines, verdict)


def abi_encode_result(values: Values, chain_id: int | None) -> Result:
    """Return the selector and calldata of a call from a signature and arguments."""
    signature = values.get("signature", "").strip()
    if not signature:
        return (ResultLine("Signature", "type e.g. transfer(address to, uint256 amount)"),)
    arguments = [line for line in values.get("arguments", "").splitlines() if line.strip()]
    try:
        function = function_signature(signature)
        if function.params and not arguments and function.kind == "function":
            wanted = ", ".join(p.type for p in function.params)
            return (ResultLine("Arguments", f"type them, one a line: {wanted}", Tone.MUTED),)
        data = encode_call(signature, arguments, chain_id)
    except (SignatureSyntaxError, AbiInputError) as error:
        return _error(error)
    return (
        ResultLine("Function", function.canonical),
        ResultLine("Selector", "0x" + function.key.hex()),
        ResultLine("Calldata", "0x" + data.hex()),
        ResultLine("Length", f"{len(data):,} bytes"),
    )


def _decoded_lines(decoded: DecodedCall | DecodedEvent, chain_id: int | None) -> list[ResultLine]:
    """Return a decoded call's or event's parameters, one a line (addresses checksummed)."""
    kind = "Function" if isinstance(decoded, DecodedCall) else "Event"
    lines = [ResultLine(kind, decoded.signature)]
    for index, param in enumerate(decoded.params):
        name = param.name or f"#{index}"
        extra = ", indexed" if param.indexed else ""
        text = param.text
        if param.type == "address" and isinstance(param.value, str):
            text = to_checksum_address(param.value, chain_id)
        lines.append(ResultLine(f"{name} ({param.type}{extra})", text))
    return lines


def abi_decode_result(values: Values, chain_id: int | None) -> Result:
    """Return calldata (or a log: topics and data) decoded by the bundled or a pasted ABI."""
    text = values.get("data", "").strip()
    topics = [line.strip() for line in values.get("topics", "").splitlines() if line.strip()]
    try:
        data = bytes.fromhex(text.removeprefix("0x").removeprefix("0X"))
        table: SignatureTable | None = None
        if values.get("abi", "").strip():
            table = abi_table(values["abi"])
    except (ValueError, AbiInputError) as error:
        return _error(error)
    source = "the pasted ABI" if table is not None else "the bundled signatures"
    if topics:
        event = decode_log(topics, data, table)
        if event is None:
            return (ResultLine("Event", f"no event of {source} matches topic0", Tone.MUTED),)
        return tuple(_decoded_lines(event, chain_id))
    if len(data) < 4:
        return (ResultLine("Calldata", "paste calldata (0x…) or a log's data and topics"),)
    call = decode_call(data, table)
    if call is None:
        return (
            ResultLine(
                "Function",
                f"no function of {source} decodes selector 0x{data[:4].hex()}",
                Tone.MUTED,
            ),
        )
    return tuple(_decoded_lines(call, chain_id))


def selector_result(values: Values, chain_id: int | None) -> Result:
    """Return what a selector, topic or signature is known as."""
    query = values.get("query", "").strip()
    if not query:
        return (ResultLine("Look up", "a selector 0x…8, a topic 0x…64, or a signature"),)
    try:
        found = lookup(query)
    except SignatureSyntaxError as error:
        return _error(error)
    lines: list[ResultLine] = []
    for item in found:
        name = "Selector" if item.kind == "function" else "Topic (event)"
        lines.append(ResultLine(name, "0x" + item.key.hex()))
        known = "; ".join(signature.text for signature in item.known)
        lines.append(
            ResultLine(
                "  known as",
                known or "not in the bundled signatures",
                Tone.NORMAL if known else Tone.MUTED,
            )
        )
    return tuple(lines)


HEX_OR_TEXT = ToolInput("mode", "Read the input as", choices=tuple(m.value for m in HashInput))
TOOLS: dict[ToolKind, ToolSpec] = {
    ToolKind.KECCAK: ToolSpec(
        "Keccak-256",
        (ToolInput("input", "Text or 0x hex", "hello", multiline=True), HEX_OR_TEXT),
        keccak_result,
        "Computed here and by the node (web3_sha3); a difference is the node's fault.",
    ),
    ToolKind.UNITS: ToolSpec(
        "Units",
        (
            ToolInput("amount", "Amount", "1.5"),
            ToolInput("unit", "Unit", choices=tuple(reversed(UNITS))),  # RBTC first
        ),
        units_result,
        "Exact decimal arithmetic: 1 RBTC = 10^18 wei = 10^9 gwei.",
    ),
    ToolKind.CHECKSUM: ToolSpec(
        "Checksums",
        (ToolInput("address", "Address", "0x5aaeb6053f3e94c9b9a09f33669435e7ef1beaed"),),
        checksum_result,
        "EIP-1191 (RSKIP-60) mixes the chain id into the checksum; EIP-55 does not.",
    ),
    ToolKind.ABI_ENCODE: ToolSpec(
        "ABI encode",
        (
            ToolInput("signature", "Function", "transfer(address to, uint256 amount)"),
            ToolInput(
                "arguments", "Arguments, one a line", ENCODE_ARGUMENTS_EXAMPLE, multiline=True
            ),
        ),
        abi_encode_result,
        "Arrays and tuples are JSON arrays; addresses may carry a checksum.",
    ),
    ToolKind.ABI_DECODE: ToolSpec(
        "ABI decode",
        (
            ToolInput("data", "Calldata, or a log's data", "0x…", multiline=True),
            ToolInput("topics", "Log topics, one a line (none: calldata)", multiline=True),
            ToolInput("abi", "ABI JSON (optional; else the bundled signatures)", multiline=True),
        ),
        abi_decode_result,
    ),
    ToolKind.SELECTOR: ToolSpec(
        "Selector and topic lookup",
        (ToolInput("query", "Selector, topic or signature", "0xa9059cbb"),),
        selector_result,
    ),
}
