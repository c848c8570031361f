"""Rootstock's opcodes where they differ from py-evm's Petersburg table (rskj VM.java, Program).

CALL and its kin: the callee gets min(gas left, gas asked + stipend), all charged to the caller
(no 63/64 rule), 25,000 more for a CALL to an account that does not exist (whatever the value);
CREATE and CREATE2 hand the callee all gas left; EXTCODESIZE of a precompiled or native contract
is 2^256-1 and its EXTCODEHASH keccak("") (RSKIP90, VM.doEXTCODEHASH); SELFDESTRUCT costs 25,000
more when the beneficiary does not exist; BASEFEE is the block's minimum gas price (RSKIP412).
Each opcode reports its frame to the state's recorder (vm/frames.py) when there is one.
"""

from __future__ import annotations

from eth import constants
from eth._utils.address import (
    force_bytes_to_address,
    generate_contract_address,
    generate_safe_contract_address,
)
from eth.abc import ComputationAPI, MessageAPI, OpcodeAPI
from eth.exceptions import InvalidInstruction, OutOfGas, WriteProtection
from eth.vm.logic.system import _selfdestruct
from eth.vm.opcode import Opcode
from eth_hash.auto import keccak
from eth_typing import Address

from explorer.vm import gas
from explorer.vm.frames import recorder_of
from explorer.vm.lazy import LazyHeader
from explorer.vm.natives import special_name

MAX_WORD = 2**256 - 1
EMPTY_CODE_HASH = keccak(b"")


def is_special(computation: ComputationAPI, address: bytes) -> bool:
    """Tell whether address is a precompiled or native contract under the running rules."""
    return address in computation.precompiles


def exists(computation: ComputationAPI, address: bytes) -> bool:
    """Tell whether an account exists: a balance, a nonce or code (what a node's reads show).

    rskj asks its trie (MutableRepository.isExist); an account is in it once it held value,
    sent a transaction or got code, which the service's reads show as non-empty.
    """
    return not computation.state.account_is_empty(force_bytes_to_address(address))


def _sequence(computation: ComputationAPI) -> int:
    """Return the next place in the run's shared order of frames and logs."""
    return computation.transaction_context.get_next_log_counter()


def _kept_gas(child: ComputationAPI) -> int:
    """Return the gas a finished child hands back to its caller."""
    return child.get_gas_remaining() if child.should_return_gas else 0


def run_child(
    computation: ComputationAPI, kind: str, msg: MessageAPI, to: bytes | None = None
) -> ComputationAPI:
    """Run a child message, recording its frame when the state records."""
    recorder = recorder_of(computation)
    caller = bytes(computation.msg.storage_address)  # DELEGATECALL's too: the calling contract
    frame = recorder.enter(kind, msg, _sequence(computation), to, caller) if recorder else None
    if frame is not None and to is not None and is_special(computation, to):
        frame.native = special_name(to)
    child = computation.apply_child_computation(msg)
    if recorder is not None and frame is not None:
        recorder.leave(frame, child, msg.gas - _kept_gas(child))
    return child


class RskCall(Opcode):
    """CALL, CALLCODE, DELEGATECALL and STATICCALL as rskj runs them (VM.doCALL)."""

    gas_cost = 0  # everything is charged in __call__, as VM.computeCallGas does
    kind = "CALL"
    pops_value = True  # STATICCALL pops none from RSKIP103, DELEGATECALL never

    def __call__(self, computation: ComputationAPI) -> None:
        """Charge, check and run the call; push 1 on success, 0 otherwise."""
        asked = computation.stack_pop1_int()
        target = force_bytes_to_address(computation.stack_pop1_bytes())
        value = computation.stack_pop1_int() if self.pops_value else 0
        in_at, in_size, out_at, out_size = computation.stack_pop_ints(4)
        msg = computation.msg
        if msg.is_static and self.kind == "CALL" and value:
            raise WriteProtection("Cannot modify state while inside of a STATICCALL context")
        cost = gas.CALL + (gas.VT_CALL if value else 0)
        if self.kind == "CALL" and not exists(computation, target):
            cost += gas.NEW_ACCT_CALL
        computation.consume_gas(cost, reason=self.mnemonic)
        computation.extend_memory(in_at, in_size)
        computation.extend_memory(out_at, out_size)
        stipend = gas.STIPEND_CALL if value else 0
        left = computation.get_gas_remaining()
        if left < stipend:
            raise OutOfGas(f"{self.mnemonic}: {stipend} gas needed for the stipend")
        callee_gas = min(left, asked + stipend)
        computation.consume_gas(callee_gas, reason=self.mnemonic)
        data = computation.memory_read_bytes(in_at, in_size)
        if self._refused(computation, value):
            computation.return_gas(callee_gas)
            computation.return_data = b""
            computation.stack_push_int(0)
            return
        msg = self._message(computation, target, value, data, callee_gas)
        child = run_child(computation, self.kind, msg, target)
        computation.stack_push_int(0 if child.is_error else 1)
        if not child.should_erase_return_data:
            size = min(out_size, len(child.output))
            computation.memory_write(out_at, size, child.output[:size])
        computation.return_gas(_kept_gas(child))

    def _refused(self, computation: ComputationAPI, value: int) -> bool:
        """Tell whether the call is refused before it runs: too deep, or too little balance."""
        too_deep = computation.msg.depth + 1 > computation.max_depth  # type: ignore[attr-defined]
        moves = self.kind in ("CALL", "CALLCODE") and value
        poor = moves and computation.state.get_balance(computation.msg.storage_address) < value
        return bool(too_deep or poor)

    def _message(
        self, computation: ComputationAPI, target: Address, value: int, data: bytes, gas_: int
    ) -> MessageAPI:
        """Return the child message of this kind of call."""
        msg, state = computation.msg, computation.state
        own = msg.storage_address
        if self.kind == "CALL":
            return computation.prepare_child_message(
                gas=gas_, to=target, value=value, data=data, code=state.get_code(target),
                is_static=msg.is_static,
            )  # fmt: skip
        if self.kind == "STATICCALL":
            return computation.prepare_child_message(
                gas=gas_, to=target, value=0, data=data, code=state.get_code(target),
                should_transfer_value=False, is_static=True,
            )  # fmt: skip
        if self.kind == "CALLCODE":
            return computation.prepare_child_message(
                gas=gas_, to=own, value=value, data=data, code=state.get_code(target),
                code_address=target, is_static=msg.is_static,
            )  # fmt: skip
        return computation.prepare_child_message(
            gas=gas_, to=own, sender=msg.sender, value=msg.value, data=data,
            code=state.get_code(target), code_address=target, should_transfer_value=False,
            is_static=msg.is_static,
        )  # fmt: skip


def call_opcode(kind: str, mnemonic: str, pops_value: bool) -> RskCall:
    """Return one of the call opcodes."""
    opcode_class = RskCall.configure(
        __name__=f"Rsk{kind.title()}", kind=kind, mnemonic=mnemonic, pops_value=pops_value
    )
    return opcode_class()


class RskCreate(Opcode):
    """CREATE and CREATE2 as rskj runs them (VM.doCREATE, Program.createContract)."""

    gas_cost = 0
    kind = "CREATE"
    salted = False

    def __call__(self, computation: ComputationAPI) -> None:
        """Charge, check and run the creation; push the new address, or 0."""
        if computation.msg.is_static:
            raise WriteProtection("Cannot create a contract inside a STATICCALL context")
        value, at, size = computation.stack_pop_ints(3)
        salt = computation.stack_pop1_int() if self.salted else 0
        rules = computation.rules  # type: ignore[attr-defined]
        cost = gas.CREATE + gas.initcode_cost(rules, size)
        if self.salted:
            cost += gas.SHA3_WORD * gas.words(size)
        computation.consume_gas(cost, reason=self.mnemonic)
        computation.extend_memory(at, size)
        code = computation.memory_read_bytes(at, size)
        if rules.on(438) and size > gas.MAX_INITCODE_SIZE:
            raise OutOfGas(f"init code of {size} bytes is over {gas.MAX_INITCODE_SIZE}")
        own = computation.msg.storage_address
        state = computation.state
        too_deep = computation.msg.depth + 1 > computation.max_depth  # type: ignore[attr-defined]
        if too_deep or state.get_balance(own) < value:
            computation.stack_push_int(0)
            return
        child_gas = computation.get_gas_remaining()
        computation.consume_gas(child_gas, reason=self.mnemonic)
        nonce = state.get_nonce(own)
        state.increment_nonce(own)
        address = (
            generate_safe_contract_address(own, salt, code)
            if self.salted
            else generate_contract_address(own, nonce)
        )
        computation.return_data = b""
        if state.has_code_or_nonce(address):  # a collision (RSKIP125): the gas is lost
            computation.stack_push_int(0)
            return
        msg = computation.prepare_child_message(
            gas=child_gas, to=constants.CREATE_CONTRACT_ADDRESS, value=value, data=b"",
            code=code, create_address=address,
        )  # fmt: skip
        child = run_child(computation, self.kind, msg)
        if child.is_error:
            computation.stack_push_int(0)
        else:
            computation.stack_push_bytes(address)
        computation.return_gas(_kept_gas(child))


def create_opcode(kind: str, mnemonic: str) -> RskCreate:
    """Return CREATE or CREATE2."""
    salted = kind == "CREATE2"
    opcode_class = RskCreate.configure(
        __name__=f"Rsk{kind.title()}", kind=kind, mnemonic=mnemonic, salted=salted
    )
    return opcode_class()


def selfdestruct(computation: ComputationAPI) -> None:
    """SELFDESTRUCT (VM.doSUICIDE): 25,000 more when the beneficiary does not exist."""
    if computation.msg.is_static:
        raise WriteProtection("Cannot selfdestruct inside a STATICCALL context")
    beneficiary = force_bytes_to_address(computation.stack_pop1_bytes())
    if not exists(computation, beneficiary):
        computation.consume_gas(gas.NEW_ACCT_SUICIDE, reason="SELFDESTRUCT")
    recorder = recorder_of(computation)
    if recorder is not None:
        balance = computation.state.get_balance(computation.msg.storage_address)
        recorder.selfdestruct(computation.msg, beneficiary, balance, _sequence(computation))
    _selfdestruct(computation, beneficiary)


def extcodesize(computation: ComputationAPI) -> None:
    """EXTCODESIZE: a precompiled or native contract answers 2^256-1 (RSKIP90)."""
    address = force_bytes_to_address(computation.stack_pop1_bytes())
    if is_special(computation, address):
        computation.stack_push_int(MAX_WORD)
    else:
        computation.stack_push_int(len(computation.state.get_code(address)))


def extcodehash(computation: ComputationAPI) -> None:
    """EXTCODEHASH: keccak("") for a precompiled or native contract, 0 for no account."""
    address = force_bytes_to_address(computation.stack_pop1_bytes())
    if is_special(computation, address):
        computation.stack_push_bytes(EMPTY_CODE_HASH)
    elif not exists(computation, address):
        computation.stack_push_int(0)
    else:
        computation.stack_push_bytes(keccak(computation.state.get_code(address)))


def basefee(computation: ComputationAPI) -> None:
    """BASEFEE: the block's minimum gas price (VM.doBASEFEE, RSKIP412)."""
    context = computation.state.execution_context
    if isinstance(context, LazyHeader):
        context.note_header()
    computation.stack_push_int(computation.state.minimum_gas_price)  # type: ignore[attr-defined]


def unknown(opcode: int) -> OpcodeAPI:
    """Return an opcode that fails as rskj does on an unknown byte, and notes which it was."""

    def fail(computation: ComputationAPI) -> None:
        recorder = recorder_of(computation)
        if recorder is not None and opcode != 0xFE:  # 0xFE: INVALID, on purpose
            address = bytes(computation.msg.code_address)
            recorder.note_unknown_opcode(address, computation.code.program_counter - 1, opcode)
        raise InvalidInstruction(f"Invalid opcode 0x{opcode:02x}")

    return Opcode.as_opcode(fail, f"UNKNOWN_0x{opcode:02x}", 0)
