"""A message's computation under Rootstock's rules: its opcode table, precompiles and creations.

Built on py-evm's Petersburg computation (the schedule rskj kept: EIP-150 prices, classic
SSTORE) with rskj's own call, create and self-destruct opcodes (vm/opcodes.py) and the opcodes
each upgrade added. What a creation costs and refuses is Program.createContract's and
TransactionExecutor.createContract's: 200 gas a byte of code, at most 0x6000 bytes, none
starting with 0xEF from RSKIP544, the new contract's nonce 1 only when CREATE made it (RSKIP125).
"""

from __future__ import annotations

import copy
from collections.abc import Callable
from functools import cache
from typing import Any

from eth.abc import ComputationAPI, MessageAPI, OpcodeAPI, StateAPI, TransactionContextAPI
from eth.exceptions import OutOfGas, VMError
from eth.vm import mnemonics, opcode_values
from eth.vm.forks.byzantium.opcodes import ensure_no_static
from eth.vm.forks.cancun import logic as cancun_logic
from eth.vm.forks.istanbul.computation import ISTANBUL_PRECOMPILES
from eth.vm.forks.petersburg.computation import PetersburgComputation
from eth.vm.forks.petersburg.opcodes import PETERSBURG_OPCODES
from eth.vm.logic import context, memory, stack
from eth.vm.opcode import Opcode

from explorer.vm import gas, opcodes
from explorer.vm.natives import precompiles_at
from explorer.vm.rules import REGTEST_RULES, Rules

Precompile = Callable[[ComputationAPI], Any]


class NativeFailure(VMError):
    """A precompiled or native contract failed: the call fails, its unused gas goes back.

    rskj returns a failing precompile's unused gas from RSKIP197 (Program.
    executePrecompiledAndHandleError); py-evm would burn it.
    """

    burns_gas = False
    erases_return_data = True


def _op(logic: Callable[[ComputationAPI], None], mnemonic: str, cost: int) -> OpcodeAPI:
    """Return an opcode of plain logic and a fixed cost."""
    return Opcode.as_opcode(logic, mnemonic, cost)


def opcode_table(rules: Rules) -> dict[int, Any]:
    """Return the opcodes rskj runs under rules (VM.executeOpcode's activation checks)."""
    table: dict[int, Any] = copy.deepcopy(PETERSBURG_OPCODES)
    v, m = opcode_values, mnemonics
    table[v.CALL] = opcodes.call_opcode("CALL", m.CALL, True)
    table[v.CALLCODE] = opcodes.call_opcode("CALLCODE", m.CALLCODE, True)
    table[v.DELEGATECALL] = opcodes.call_opcode("DELEGATECALL", m.DELEGATECALL, False)
    table[v.STATICCALL] = opcodes.call_opcode("STATICCALL", m.STATICCALL, not rules.on(103))
    table[v.CREATE] = opcodes.create_opcode("CREATE", m.CREATE)
    table[v.CREATE2] = opcodes.create_opcode("CREATE2", m.CREATE2)
    table[v.SELFDESTRUCT] = _op(opcodes.selfdestruct, m.SELFDESTRUCT, gas.SUICIDE)
    table[v.EXTCODESIZE] = _op(opcodes.extcodesize, m.EXTCODESIZE, 700)
    table[v.EXTCODEHASH] = _op(opcodes.extcodehash, m.EXTCODEHASH, 400)
    table[v.SELFBALANCE] = _op(context.selfbalance, m.SELFBALANCE, 5)
    table[v.CHAINID] = _op(context.chain_id, m.CHAINID, 2)
    table[v.BASEFEE] = _op(opcodes.basefee, m.BASEFEE, 2)
    table[v.PUSH0] = _op(stack.push0, m.PUSH0, 2)
    table[v.MCOPY] = _op(memory.mcopy, m.MCOPY, 3)
    table[v.TLOAD] = _op(cancun_logic.tload, m.TLOAD, gas.TLOAD)
    table[v.TSTORE] = _op(ensure_no_static(cancun_logic.tstore), m.TSTORE, gas.TSTORE)
    gated = {
        v.STATICCALL: 91, v.SHL: 120, v.SHR: 120, v.SAR: 120, v.CREATE2: 125,
        v.EXTCODEHASH: 140, v.SELFBALANCE: 151, v.CHAINID: 152, v.PUSH0: 398,
        v.BASEFEE: 412, v.MCOPY: 445, v.TLOAD: 446, v.TSTORE: 446,
    }  # fmt: skip
    for value, rskip in gated.items():
        if not rules.on(rskip):
            del table[value]
    for value in range(256):
        table.setdefault(value, opcodes.unknown(value))
    return table


def _guarded(precompile: Precompile) -> Precompile:
    """Wrap one of py-evm's precompiles: its failure returns the unused gas, as rskj's does."""

    def run(computation: ComputationAPI) -> None:
        try:
            precompile(computation)
        except OutOfGas:
            raise
        except VMError as error:
            raise NativeFailure(str(error)) from None

    return run


def priced(run: Precompile, gas_of: Callable[[bytes], int]) -> Precompile:
    """Return a native contract's code charged as rskj charges it before running it."""

    def charged(computation: ComputationAPI) -> None:
        required = gas_of(bytes(computation.msg.data_as_bytes))
        if required > computation.get_gas_remaining():
            raise OutOfGas(f"a native contract call needs {required} gas")
        computation.consume_gas(required, reason="native contract")
        _guarded(run)(computation)

    return charged


class RskComputation(PetersburgComputation):
    """Computations under one set of Rootstock rules (made by `computation_class`)."""

    rules: Rules = REGTEST_RULES  # configured per rules by computation_class / state_class
    max_depth: int = gas.MAX_DEPTH

    @property
    def precompiles(self) -> dict[Any, Precompile]:
        """Ethereum's precompiles under the rules and the state's native contracts."""
        return self.state.special_contracts  # type: ignore[attr-defined,no-any-return]

    def get_gas_refund(self) -> int:
        """Refunds of this frame and its calls; a CREATE's init code keeps none (rskj quirk).

        Program.finalizeContractCreation merges the new contract's logs and deletions into
        its creator's result, not its refunds.
        """
        if self.is_error:
            return int(self.msg.refund)
        children = sum(c.get_gas_refund() for c in self.children if not c.msg.is_create)
        return int(self.msg.refund + self._gas_meter.gas_refunded + children)

    @classmethod
    def apply_message(
        cls,
        state: StateAPI,
        message: MessageAPI,
        transaction_context: TransactionContextAPI,
        parent_computation: ComputationAPI | None = None,
    ) -> ComputationAPI:
        """Move the value, run the code; undo everything when it fails (no touched accounts)."""
        snapshot = state.snapshot()
        if message.should_transfer_value and message.value:
            state.delta_balance(message.sender, -message.value)
            state.delta_balance(message.storage_address, message.value)
        computation = cls.apply_computation(
            state, message, transaction_context, parent_computation=parent_computation
        )
        if computation.is_error:
            state.revert(snapshot)
        else:
            state.commit(snapshot)
        return computation

    @classmethod
    def apply_create_message(
        cls,
        state: StateAPI,
        message: MessageAPI,
        transaction_context: TransactionContextAPI,
        parent_computation: ComputationAPI | None = None,
    ) -> ComputationAPI:
        """Run init code and keep the code it returns, paying 200 gas a byte."""
        snapshot = state.snapshot()
        if message.depth > 0 and cls.rules.on(125):
            state.increment_nonce(message.storage_address)
        computation = cls.apply_message(
            state, message, transaction_context, parent_computation=parent_computation
        )
        if computation.is_error:
            state.revert(snapshot)
            return computation
        code = bytes(computation.output)
        try:
            if code and code[0] == 0xEF and cls.rules.on(544):
                raise VMError("contract code cannot start with 0xEF (RSKIP544)")
            computation.consume_gas(gas.CREATE_DATA * len(code), reason="contract code")
            if len(code) > gas.MAX_CONTRACT_SIZE:
                raise VMError(f"contract code of {len(code)} bytes is over {gas.MAX_CONTRACT_SIZE}")
        except VMError as error:
            computation.consume_gas(computation.get_gas_remaining(), reason="creation failed")
            computation.error = error
            state.revert(snapshot)
            return computation
        if code:
            state.set_code(message.storage_address, code)
        state.commit(snapshot)
        return computation


@cache
def precompile_table(rules: Rules) -> dict[bytes, Precompile]:
    """Return Ethereum's precompiles active under rules, each failing as rskj's does."""
    active = precompiles_at(rules)
    return {
        address: _guarded(run)
        for address, run in ISTANBUL_PRECOMPILES.items()
        if int.from_bytes(address, "big") in active
    }


@cache
def computation_class(rules: Rules) -> type[RskComputation]:
    """Return the computation class of one set of rules (made once)."""
    return RskComputation.configure(
        __name__="RskComputation",
        rules=rules,
        max_depth=gas.max_depth(rules),
        opcodes=opcode_table(rules),
        _precompiles=precompile_table(rules),
    )
