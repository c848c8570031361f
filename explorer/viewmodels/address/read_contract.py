"""The read-contract tool: an ABI (standard or pasted), a view function, typed inputs, eth_call."""

from __future__ import annotations

import enum
from collections.abc import Sequence
from dataclasses import dataclass, replace

from PySide6.QtCore import QObject

from explorer.chain.abi_input import (
    ERC20_ABI,
    ERC721_ABI,
    AbiFunction,
    AbiInputError,
    AbiParam,
    parse_abi,
)
from explorer.presentation.simulation import describe_simulation
from explorer.rpc.errors import RpcError
from explorer.rpc.params import BlockSelector
from explorer.services.contracts import ReadResult, encode_call, read_contract
from explorer.services.estimate import preflight
from explorer.services.session import Session
from explorer.viewmodels.address.blocks import parse_block_text
from explorer.viewmodels.address.tool import Tool
from explorer.viewmodels.observable import TypedSignal, qproperty


class AbiChoice(enum.Enum):
    """Where the functions come from: a standard ABI or one the user pastes."""

    CONTRACT = "This contract's functions"
    ERC20 = "ERC-20"
    ERC721 = "ERC-721"
    PASTED = "Pasted ABI"


STANDARD_ABIS = {AbiChoice.ERC20: ERC20_ABI, AbiChoice.ERC721: ERC721_ABI}


@dataclass(frozen=True)
class InputField:
    """One typed input of the chosen function, as the view asks for it."""

    label: str
    placeholder: str


def input_field(param: AbiParam) -> InputField:
    """Return how to ask for a parameter (arrays are typed as JSON)."""
    array = " (JSON array)" if param.type.endswith("]") else ""
    return InputField(f"{param.name or 'input'} ({param.type}):", param.type + array)


def describe_outputs(result: ReadResult) -> str:
    """Return a call's outputs one a line, or why it has none (raw words when types unknown)."""
    function = result.function
    if result.error:
        return f"{function.name}: {result.error}"
    if not function.outputs and result.raw:
        return raw_output_text(result.raw)
    lines = [
        f"{p.name or f'output {i}'} ({p.type}): {p.text}" for i, p in enumerate(result.outputs)
    ]
    return "\n".join(lines) or f"{function.name}: no outputs"


class ReadContractViewModel(Tool):
    """Calls a view function of the address with typed inputs at a block.

    Signals (besides Tool's: the result is the call's outputs):
        abi_changed(AbiChoice): another ABI was chosen.
        functions_changed(tuple[AbiFunction, ...]): the view functions (and their status line)
            changed.
        function_changed(int): another function was chosen (its inputs changed).
    """

    abi_changed = TypedSignal[AbiChoice]()
    functions_changed = TypedSignal[tuple[AbiFunction, ...]]()
    function_changed = TypedSignal[int]()

    def __init__(self, session: Session, address: str, parent: QObject | None = None) -> None:
        super().__init__(session, address, parent)
        self._abi = AbiChoice.ERC20
        self._pasted = ""
        self._contract: tuple[AbiFunction, ...] = ()
        self._chosen_by_user = False  # a late offer of the contract's functions must not undo it
        self._functions: tuple[AbiFunction, ...] = ()
        self._functions_status = ""
        self._function = -1
        self._parse()

    def _get_abi(self) -> AbiChoice:
        """Return where the functions come from."""
        return self._abi

    abi = qproperty(_get_abi, abi_changed)

    def _get_pasting(self) -> bool:
        """Tell whether the ABI is the one the user pastes."""
        return self._abi is AbiChoice.PASTED

    pasting = qproperty(_get_pasting, abi_changed)

    def _get_functions(self) -> tuple[AbiFunction, ...]:
        """Return the ABI's view functions."""
        return self._functions

    functions = qproperty(_get_functions, functions_changed)

    def _get_function_names(self) -> tuple[str, ...]:
        """Return the canonical signatures of the functions (writes marked: simulated)."""
        return tuple(f.canonical + ("" if f.is_view else " — simulate") for f in self._functions)

    function_names = qproperty(_get_function_names, functions_changed)

    def _get_functions_status(self) -> str:
        """Return how many view functions the ABI has, or why it is not one."""
        return self._functions_status

    functions_status = qproperty(_get_functions_status, functions_changed)

    def _get_function(self) -> int:
        """Return the index of the chosen function (-1: none)."""
        return self._function

    function = qproperty(_get_function, function_changed)

    def _get_inputs(self) -> tuple[InputField, ...]:
        """Return the typed inputs the chosen function takes."""
        if self._function < 0:
            return ()
        return tuple(input_field(p) for p in self._functions[self._function].inputs)

    inputs = qproperty(_get_inputs, function_changed)

    def offer_contract(self, functions: tuple[AbiFunction, ...]) -> None:
        """Offer the contract's functions (recovered or matched).

        They are chosen unless the user already chose something; a recovered function that a
        standard ABI knows gets its outputs from it.
        """
        known = {f.selector: f.outputs for abi in STANDARD_ABIS.values() for f in parse_abi(abi)}
        typed = (
            replace(f, outputs=known.get(f.selector, ())) if not f.outputs else f for f in functions
        )
        self._contract = tuple(sorted(typed, key=lambda f: not f.is_view))  # reads first
        if self._abi is AbiChoice.CONTRACT or (functions and not self._chosen_by_user):
            self._set_abi(AbiChoice.CONTRACT)

    def choose_abi(self, choice: AbiChoice) -> None:
        """Use a standard ABI or the pasted one (the user's choice)."""
        self._chosen_by_user = True
        self._set_abi(choice)

    def _set_abi(self, choice: AbiChoice) -> None:
        """Use an ABI and list its functions."""
        self._abi = choice
        self.abi_changed.emit(choice)
        self._parse()

    def paste_abi(self, text: str) -> None:
        """Keep the pasted ABI (JSON); use it when it is the chosen one."""
        self._pasted = text
        if self.pasting:
            self._parse()

    def _parse(self) -> None:
        """Read the view functions of the chosen ABI (all of the contract's: writes simulated)."""
        if self._abi is AbiChoice.CONTRACT:
            reads = sum(1 for f in self._contract if f.is_view)
            writes = len(self._contract) - reads
            status = f"{reads} read function(s) to call, {writes} write function(s) to simulate."
            self._set_functions(self._contract, status)
            return
        try:
            functions = parse_abi(STANDARD_ABIS.get(self._abi, self._pasted))
        except AbiInputError as error:
            self._set_functions((), f"Invalid ABI: {error}")
            return
        views = tuple(f for f in functions if f.is_view)
        hidden = len(functions) - len(views)
        note = f" ({hidden} state-changing function(s) left out)" if hidden else ""
        self._set_functions(views, f"{len(views)} view function(s){note}.")

    def _set_functions(self, functions: tuple[AbiFunction, ...], status: str) -> None:
        """Publish the functions, then choose the first."""
        self._functions, self._functions_status = functions, status
        self.functions_changed.emit(functions)
        self._choose(0 if functions else -1)

    def choose_function(self, index: int) -> None:
        """Choose the index-th function (-1: none): the user's choice."""
        self._chosen_by_user = True
        self._choose(index)

    def _choose(self, index: int) -> None:
        """Choose the index-th function (-1: none)."""
        self._function = index if 0 <= index < len(self._functions) else -1
        self.function_changed.emit(self._function)

    def call(self, inputs: Sequence[str], block_text: str = "") -> None:
        """Call the chosen function with typed inputs at a typed block."""
        if self._function < 0:
            return
        function = self._functions[self._function]
        try:
            block = parse_block_text(block_text)
        except ValueError as error:
            self._invalid(error)
            return
        self._start(self._call(function, list(inputs), block))

    async def _call(self, function: AbiFunction, inputs: list[str], block: BlockSelector) -> None:
        """Run one read-contract call and describe its outputs (a write is simulated)."""
        if not function.is_view:
            await self._simulate(function, inputs, block)
            return
        try:
            result = await read_contract(
                self.session.client, self.address, function, inputs, block, self.chain_id
            )
        except AbiInputError as error:
            self._invalid(error)
        except RpcError as error:
            self._failed(error)
        else:
            self._publish(describe_outputs(result))

    async def _simulate(
        self, function: AbiFunction, inputs: list[str], block: BlockSelector
    ) -> None:
        """Simulate a write function with eth_call and eth_estimateGas, sending nothing."""
        try:
            data = encode_call(function, inputs, self.chain_id)
            call = {"to": self.address, "data": "0x" + data.hex()}
            self._publish(describe_simulation(await preflight(self.session.client, call, block)))
        except AbiInputError as error:
            self._invalid(error)
        except RpcError as error:
            self._failed(error)


def raw_output_text(raw: bytes) -> str:
    """Return output of unknown types as its 32-byte words, each also read as a number."""
    words = [raw[i : i + 32] for i in range(0, len(raw), 32)]
    lines = ["output types unknown (recovered from bytecode); the raw words:"]
    lines += [
        f"  word {i}: 0x{w.hex()} = {int.from_bytes(w, 'big'):,}" for i, w in enumerate(words)
    ]
    return "\n".join(lines)
