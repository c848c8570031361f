"""Rootstock's VM rules (explorer/vm), each checked against the number rskj's source gives.

Every test runs real bytecode through the replay runner over a small world of accounts, so the
gas and state are what py-evm computes under the rules, not restated numbers.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import pytest

from explorer.vm import gas
from explorer.vm.lazy import Known, Need, NeedKind
from explorer.vm.natives import BRIDGE, REMASC
from explorer.vm.replay import BlockEnv, ReplayTx, TxRun, run
from explorer.vm.rules import (
    HEIGHTS,
    REGTEST_RULES,
    RuleSet,
    UnsupportedHeight,
    rule_set_of,
    rules_at,
)

SENDER = bytes.fromhex("aa" * 20)
CONTRACT = bytes.fromhex("cc" * 20)
EOA = bytes.fromhex("ee" * 20)
COINBASE = bytes.fromhex("c0" * 20)
RICH = 10**24
PRICE = 60_000_000
MAINNET = HEIGHTS[RuleSet.MAINNET]


@dataclass
class World:
    """Accounts as a node would report them at block N−1."""

    balances: dict[bytes, int] = field(default_factory=dict)
    codes: dict[bytes, bytes] = field(default_factory=dict)
    storage: dict[tuple[bytes, int], int] = field(default_factory=dict)

    def answer(self, need: Need) -> object:
        """Answer a replay's need from these accounts."""
        if need.kind is NeedKind.BALANCE:
            return self.balances.get(need.address, 0)
        if need.kind is NeedKind.NONCE:
            return 0
        if need.kind is NeedKind.CODE:
            return self.codes.get(need.address, b"")
        return self.storage.get((need.address, need.slot), 0)


def play(
    world: World, tx: ReplayTx, block: int = 9_000_000, rules_set: RuleSet = RuleSet.MAINNET
) -> TxRun:
    """Run one transaction in rounds until it lacks nothing; return its run."""
    rules = rules_at(rules_set, block)
    env = BlockEnv(block, 1_700_000_000, COINBASE, 1, 6_800_000, PRICE, 30, rules)
    known = Known()
    known.add(Need(NeedKind.NONCE, tx.sender), tx.nonce)
    for _ in range(20):
        outcome = run([tx], env, known)
        needs = {n for n in outcome.needs if n not in known}
        if not needs:
            return outcome.runs[0]
        for need in needs:
            known.add(need, world.answer(need))
    raise AssertionError("the replay never settled")


def call(
    to: bytes | None, data: bytes = b"", value: int = 0, gas_limit: int = 1_000_000
) -> ReplayTx:
    """Return a transaction from the rich sender."""
    return ReplayTx(b"\x01" * 32, SENDER, to, 0, gas_limit, PRICE, value, data)


def world(**codes: bytes) -> World:
    """Return a world with the rich sender, a funded EOA and contracts by name."""
    found = World(balances={SENDER: RICH, EOA: 1}, codes={})
    for name, code in codes.items():
        found.codes[{"contract": CONTRACT}[name]] = code
    return found


def push20(address: bytes) -> bytes:
    """Return PUSH20 address."""
    return b"\x73" + address


def value_call(to: bytes, value: int, gas_arg: bytes = b"\x60\x00") -> bytes:
    """Return code that CALLs to with value (no data, no output) and stops."""
    return b"\x60\x00" * 4 + bytes([0x60, value]) + push20(to) + gas_arg + b"\xf1\x00"


def test_calldata_costs_68_a_byte_before_arrowhead_and_16_after() -> None:
    """Transaction.transactionCost: TX_NO_ZERO_DATA until RSKIP400, then EIP-2028's 16."""
    tx = call(EOA, data=b"\x01" * 10 + b"\x00" * 2)
    before = play(world(), tx, MAINNET["arrowhead600"] - 1)
    after = play(world(), tx, MAINNET["arrowhead600"])
    assert (before.gas_used, after.gas_used) == (21_000 + 680 + 8, 21_000 + 160 + 8)


def test_the_fee_goes_to_remasc_and_the_coinbase_is_never_touched() -> None:
    """TransactionExecutor.finalization: the fee is added to REMASC's balance."""
    done = play(world(), call(EOA, value=5))
    balance = {key[1]: (done.before[key], done.after[key]) for key in done.before
               if key[0] is NeedKind.BALANCE}  # fmt: skip
    assert balance[REMASC] == (0, 21_000 * PRICE)
    assert COINBASE not in balance


def test_a_value_call_to_an_existing_account_costs_700_and_9000_and_its_stipend_comes_back() -> (
    None
):
    """VM.computeCallGas: CALL + VT_CALL; the 2,300 stipend is charged, then refunded unused."""
    done = play(world(contract=value_call(EOA, 1)), call(CONTRACT, value=1))
    pushes = 7 * 3
    assert done.status
    assert done.gas_used == 21_000 + pushes + gas.CALL + gas.VT_CALL


def test_a_call_to_an_account_that_does_not_exist_costs_25000_more_even_without_value() -> None:
    """NEW_ACCT_CALL is charged for any CALL to a missing account (no EIP-161 exception)."""
    missing = bytes.fromhex("dd" * 20)
    done = play(world(contract=value_call(missing, 0)), call(CONTRACT))
    assert done.gas_used == 21_000 + 7 * 3 + gas.CALL + gas.NEW_ACCT_CALL


def test_the_callee_gets_all_gas_left_with_no_63_64_rule() -> None:
    """VM.getMessageCall: calleeGas = min(gas left, gas asked + stipend), nothing held back."""
    callee = bytes.fromhex("cd" * 20)
    record_gas = b"\x5a\x60\x00\x55\x00"  # GAS PUSH1 0 SSTORE STOP
    asked = b"\x7f" + b"\xff" * 32  # PUSH32 2^256-1
    found = world(contract=value_call(callee, 0, asked))
    found.codes[callee] = record_gas
    tx = call(CONTRACT, gas_limit=500_000)
    done = play(found, tx)
    left = 500_000 - 21_000 - (6 * 3 + 3) - gas.CALL  # the pushes, PUSH32, then CALL itself
    assert done.after[(NeedKind.STORAGE, callee, 0)] == left - 2  # GAS itself costs 2


@pytest.mark.parametrize(("block", "ran"), [(MAINNET["arrowhead600"] - 1, False),
                                            (MAINNET["arrowhead600"], True)])  # fmt: skip
def test_push0_runs_from_arrowhead_on(block: int, ran: bool) -> None:
    """VM.executeOpcode: PUSH0 is an invalid opcode until RSKIP398, and the run names it."""
    done = play(world(contract=b"\x5f\x00"), call(CONTRACT), block)
    assert done.status is ran
    assert bool(done.recorder.unknown_opcodes) is not ran


@pytest.mark.parametrize(("block", "kept"), [(MAINNET["vetiver900"] - 1, True),
                                             (MAINNET["vetiver900"], False)])  # fmt: skip
def test_new_code_starting_0xef_is_refused_from_vetiver(block: int, kept: bool) -> None:
    """TransactionExecutor.hasInvalidCodePrefix (RSKIP544)."""
    returns_ef = bytes.fromhex("60ef60005360016000f3")  # MSTORE8 0xef at 0, RETURN 1 byte
    done = play(world(), call(None, data=returns_ef), block)
    assert done.status is kept
    assert bool(done.codes) is kept


def test_a_contract_created_by_a_transaction_keeps_nonce_0_one_created_by_create_gets_1() -> None:
    """TransactionExecutor.create raises no nonce; Program.createContract does (RSKIP125)."""
    create_empty = b"\x60\x00\x60\x00\x60\x00\xf0\x00"  # CREATE(value 0, offset 0, size 0) STOP
    factory_init = (bytes([0x60, len(create_empty)]) + b"\x80\x60\x0b\x60\x00\x39\x60\x00\xf3"
                    + create_empty)  # fmt: skip  # CODECOPY the runtime, RETURN it
    created = play(world(), call(None, data=factory_init))
    factory = next(iter(created.codes))
    assert (NeedKind.NONCE, factory, 0) not in created.after or created.after[
        (NeedKind.NONCE, factory, 0)] == 0  # fmt: skip
    found = world(contract=create_empty)
    done = play(found, call(CONTRACT))
    nonces = {key[1]: value for key, value in done.after.items() if key[0] is NeedKind.NONCE}
    assert nonces[CONTRACT] == 1
    child = next(a for a in nonces if a not in (CONTRACT, SENDER))
    assert nonces[child] == 1


def test_refunds_are_capped_at_half_the_gas_used() -> None:
    """TransactionExecutor.refundGas: min(future refund, gasUsed / 2)."""
    clear = b"\x60\x00\x60\x00\x55\x00"  # SSTORE 0 into slot 0: 5,000 and a 15,000 refund
    found = world(contract=clear)
    found.storage[(CONTRACT, 0)] = 7
    done = play(found, call(CONTRACT))
    used = 21_000 + 6 + 5_000
    assert done.gas_used == used - min(15_000, used // 2)


def test_basefee_answers_the_block_minimum_gas_price() -> None:
    """VM.doBASEFEE (RSKIP412) pushes program.getMinimumGasPrice()."""
    done = play(world(contract=b"\x48\x60\x00\x55\x00"), call(CONTRACT))
    assert done.after[(NeedKind.STORAGE, CONTRACT, 0)] == PRICE


def test_extcodesize_of_a_native_contract_is_the_largest_word() -> None:
    """VM.doCODESIZE: a precompiled contract's size is DataWord.MAX_VALUE (RSKIP90)."""
    code = push20(BRIDGE) + b"\x3b\x60\x00\x55\x00"  # EXTCODESIZE, SSTORE it
    done = play(world(contract=code), call(CONTRACT))
    assert done.after[(NeedKind.STORAGE, CONTRACT, 0)] == 2**256 - 1


def test_rules_follow_each_network_s_heights() -> None:
    """Mainnet and testnet activate upgrades at their own heights; regtest from block 0."""
    assert not rules_at(RuleSet.MAINNET, 6_223_699).on(398)
    assert rules_at(RuleSet.MAINNET, 6_223_700).on(398)
    assert rules_at(RuleSet.TESTNET, 4_927_100).on(398)
    assert REGTEST_RULES.on(544)
    assert rules_at(RuleSet.TESTNET, 0).on(125)
    assert not rules_at(RuleSet.MAINNET, 3_000_000).on(191)


def test_blocks_before_orchid_are_refused_in_words() -> None:
    """The replayer models the rules from Orchid on and says so for older blocks."""
    with pytest.raises(UnsupportedHeight, match="older than Orchid"):
        rules_at(RuleSet.MAINNET, 728_999)


def test_only_rootstock_s_own_genesis_gets_its_heights() -> None:
    """A chain is its chain id and genesis: a devnet serving chain 31 follows regtest."""
    testnet = "0xcabb7fbe88cd6d922042a32ffc08ce8b1fbb37d650b9d4e7dbfe2a7469adfa42"
    assert rule_set_of(31, testnet) is RuleSet.TESTNET
    assert rule_set_of(31, "0x" + "12" * 32) is RuleSet.REGTEST
    assert rule_set_of(31, None) is RuleSet.REGTEST


HEADER_READS = [(0x41, int.from_bytes(COINBASE, "big")), (0x42, 1_700_000_000), (0x44, 1),
                (0x45, 6_800_000), (0x48, PRICE), (0x43, None)]  # fmt: skip


@pytest.mark.parametrize(("opcode", "answer"), HEADER_READS)
def test_a_run_needs_the_block_only_when_it_reads_its_header(
    opcode: int, answer: int | None
) -> None:
    """COINBASE, TIMESTAMP, DIFFICULTY, GASLIMIT, BASEFEE need the block; NUMBER does not."""
    chain = world(contract=bytes([opcode, 0x60, 0x00, 0x55, 0x00]))  # the opcode, SSTORE it
    done = play(chain, call(CONTRACT))
    header = Need(NeedKind.HEADER, number=9_000_000)
    rules = rules_at(RuleSet.MAINNET, 9_000_000)
    unread = BlockEnv(9_000_000, 0, bytes(20), 0, 0, 0, 30, rules, header_known=False)
    known = Known()
    known.add(Need(NeedKind.NONCE, SENDER), 0)
    fill(chain, unread, known)
    assert (header in run([call(CONTRACT)], unread, known).needs) == (answer is not None)
    if answer is not None:
        assert done.after[(NeedKind.STORAGE, CONTRACT, 0)] == answer


def fill(chain: World, env: BlockEnv, known: Known) -> None:
    """Add every account field and slot a run over env lacks (not the header) to known."""
    for _ in range(20):
        needs = {n for n in run([call(CONTRACT)], env, known).needs if n not in known}
        needs -= {n for n in needs if n.kind is NeedKind.HEADER}
        if not needs:
            return
        for need in needs:
            known.add(need, chain.answer(need))
    raise AssertionError("the replay never settled")
