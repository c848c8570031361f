"""A transaction's execution under Rootstock's rules (rskj org/ethereum/core/TransactionExecutor).

Legacy transactions only. The sender pays gasLimit × gasPrice up front and its nonce rises;
the basic cost is Transaction.transactionCost (calldata 68 or, from RSKIP400, 16 gas a non-zero
byte; a creation 53,000 plus 2 gas a word of init code from RSKIP438); a contract created by a
transaction keeps nonce 0. At the end the refund (SSTORE clears, 24,000 a self-destruct) is
capped at half the gas used, the unused gas goes back to the sender, and the fee goes to REMASC
(…01000008), not to the block's coinbase. Touched empty accounts are never deleted.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache, partial
from typing import Any

from eth._utils.address import generate_contract_address
from eth.abc import ComputationAPI, MessageAPI, SignedTransactionAPI
from eth.constants import CREATE_CONTRACT_ADDRESS
from eth.exceptions import ContractCreationCollision
from eth.typing import JournalDBCheckpoint
from eth.vm.forks.frontier.state import FrontierState, FrontierTransactionExecutor
from eth.vm.forks.frontier.transaction_context import FrontierTransactionContext
from eth.vm.message import Message
from eth.vm.transient_storage import TransientStorage
from eth_typing import Address, Hash32
from eth_utils.exceptions import ValidationError

from explorer.vm import gas
from explorer.vm.computation import Precompile, computation_class, precompile_table, priced
from explorer.vm.frames import Recorder
from explorer.vm.natives import REMASC, native_gas, natives_at, special_name
from explorer.vm.rules import REGTEST_RULES, Rules


class TxContext(FrontierTransactionContext):
    """py-evm's transaction context, holding the transaction itself for native contracts.

    The Bridge needs what rskj's precompiles get: the transaction's hash and its signature.
    """

    __slots__ = ["transaction"]
    transaction: SignedTransactionAPI


def _is_creation(transaction: SignedTransactionAPI) -> bool:
    """Tell whether a transaction creates a contract."""
    return bool(transaction.to == CREATE_CONTRACT_ADDRESS)


class RskTransactionExecutor(FrontierTransactionExecutor):
    """Runs one transaction as rskj's TransactionExecutor does."""

    @property
    def _state(self) -> RskState:
        """The state the transaction runs on."""
        return self.vm_state  # type: ignore[return-value]

    def validate_transaction(self, transaction: SignedTransactionAPI) -> None:
        """Refuse what TransactionExecutor.init refuses: nonce, balance, gas, init code size."""
        state = self._state
        creation = _is_creation(transaction)
        if creation and state.rules.on(438) and len(transaction.data) > gas.MAX_INITCODE_SIZE:
            raise ValidationError("Initcode size for contract is invalid")
        basic = gas.intrinsic_gas(state.rules, transaction.data, creation)
        if transaction.gas < basic:
            raise ValidationError(f"Not enough gas for transaction execution: needs {basic}")
        cost = transaction.gas * transaction.gas_price + transaction.value
        balance = state.get_balance(transaction.sender)
        if balance < cost:
            raise ValidationError(f"Not enough cash: require {cost}, sender cash {balance}")
        nonce = state.get_nonce(transaction.sender)
        if nonce != transaction.nonce:
            raise ValidationError(f"Invalid nonce: required {nonce}, tx.nonce {transaction.nonce}")

    def build_evm_message(self, transaction: SignedTransactionAPI) -> MessageAPI:
        """Buy the gas, raise the nonce, and make the top message."""
        state, sender = self._state, transaction.sender
        state.delta_balance(sender, -transaction.gas * transaction.gas_price)
        state.increment_nonce(sender)
        creation = _is_creation(transaction)
        basic = gas.intrinsic_gas(state.rules, transaction.data, creation)
        if creation:
            address = generate_contract_address(sender, state.get_nonce(sender) - 1)
            data, code = b"", bytes(transaction.data)
        else:
            address, data, code = None, bytes(transaction.data), state.get_code(transaction.to)
        return Message(
            gas=transaction.gas - basic, to=transaction.to, sender=sender,
            value=transaction.value, data=data, code=code,
            create_address=address,  # type: ignore[arg-type]  # None for a call
        )  # fmt: skip

    def build_computation(
        self, message: MessageAPI, transaction: SignedTransactionAPI
    ) -> ComputationAPI:
        """Run the top message, recording its frame."""
        state = self._state
        context = state.get_transaction_context(transaction)
        computations = state.computation_class
        recorder = state.recorder
        kind = "CREATE" if message.is_create else "CALL"
        frame = recorder.enter(kind, message, context.get_next_log_counter()) if recorder else None
        if frame is not None and message.code_address in state.special_contracts:
            frame.native = special_name(bytes(message.code_address))
        if message.is_create and state.has_code_or_nonce(message.storage_address):
            computation = state.get_computation(message, context)
            computation.error = ContractCreationCollision("address collision")
        elif message.is_create:
            computation = computations.apply_create_message(state, message, context)
        else:
            computation = computations.apply_message(state, message, context)
        if recorder is not None and frame is not None:
            recorder.leave(frame, computation, transaction.gas - computation.get_gas_remaining())
        return computation

    def finalize_computation(
        self, transaction: SignedTransactionAPI, computation: ComputationAPI
    ) -> ComputationAPI:
        """Refund, pay the fee to REMASC, delete self-destructed accounts."""
        state = self._state
        left = computation.get_gas_remaining()
        used = transaction.gas - left
        deleted = computation.get_accounts_for_deletion()
        if deleted:
            computation.refund_gas(gas.SUICIDE_REFUND * len(deleted))
        refund = min(computation.get_gas_refund(), used // gas.MAX_REFUND_QUOTIENT)
        back = (left + refund) * transaction.gas_price
        if back:
            state.delta_balance(transaction.sender, back)
        fee = (used - refund) * transaction.gas_price
        if fee:
            state.delta_balance(Address(REMASC), fee)
        for address in deleted:
            state.delete_account(address)
        state.clear_transient_storage()
        if state.recorder is not None and state.recorder.top is not None:
            state.recorder.top.gas_used = used - refund
        return computation


class RskState(FrontierState):
    """py-evm's state under one set of Rootstock rules (made by `state_class`).

    `natives` maps a native contract's address to its code (the devnet's Bridge, a replay's
    answers); `recorder`, when set, collects the frames of what runs.
    """

    transaction_executor_class = RskTransactionExecutor
    rules: Rules = REGTEST_RULES  # configured per rules by computation_class / state_class
    minimum_gas_price: int = 0  # what BASEFEE answers (the block's minimumGasPrice)
    natives: Mapping[bytes, Precompile] = {}
    recorder: Recorder | None = None
    _special: dict[Any, Precompile] | None = None
    _transient: TransientStorage | None = None

    @property
    def special_contracts(self) -> dict[Any, Precompile]:
        """Ethereum's precompiles and the native contracts, each charged as rskj charges it."""
        if self._special is None:
            table: dict[Any, Precompile] = dict(precompile_table(self.rules))
            active = natives_at(self.rules)
            for address, run in self.natives.items():
                if address in active:
                    table[address] = priced(run, partial(_native_gas, address))
            self._special = table
        return self._special

    @property
    def _transients(self) -> TransientStorage:
        """TLOAD's and TSTORE's storage, kept for one transaction (RSKIP446)."""
        if self._transient is None:
            self._transient = TransientStorage()
        return self._transient

    def get_transient_storage(self, address: Address, slot: int) -> bytes:
        """Return a transient slot's value."""
        return self._transients.get_transient_storage(address, slot)

    def set_transient_storage(self, address: Address, slot: int, value: bytes) -> None:
        """Set a transient slot's value."""
        self._transients.set_transient_storage(address, slot, value)

    def clear_transient_storage(self) -> None:
        """Forget the transient slots at the end of a transaction."""
        self._transients.clear()

    def snapshot(self) -> tuple[Hash32, JournalDBCheckpoint]:
        """Mark a point to go back to, transient slots included."""
        root, checkpoint = super().snapshot()
        self._transients.record(checkpoint)
        return root, checkpoint

    def commit(self, snapshot: tuple[Hash32, JournalDBCheckpoint]) -> None:
        """Keep what changed since a snapshot."""
        super().commit(snapshot)
        self._transients.commit(snapshot[1])

    def revert(self, snapshot: tuple[Hash32, JournalDBCheckpoint]) -> None:
        """Undo what changed since a snapshot."""
        super().revert(snapshot)
        self._transients.discard(snapshot[1])

    def get_transaction_context(self, transaction: SignedTransactionAPI) -> TxContext:
        """Return the context of a transaction, with the transaction in it."""
        context = TxContext(gas_price=transaction.gas_price, origin=transaction.sender)
        context.transaction = transaction
        return context

    def validate_transaction(self, transaction: SignedTransactionAPI) -> None:
        """Refuse a transaction rskj would refuse."""
        self.get_transaction_executor().validate_transaction(transaction)


def _native_gas(address: bytes, data: bytes) -> int:
    """Gas of a native contract call; 0 where the replayer does not model it."""
    cost = native_gas(address, data)
    return 0 if cost is None else cost


@cache
def state_class(rules: Rules) -> type[RskState]:
    """Return the state class of one set of rules (made once)."""
    return RskState.configure(
        __name__="RskState", rules=rules, computation_class=computation_class(rules)
    )
