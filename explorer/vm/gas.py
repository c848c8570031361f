"""rskj's gas schedule where it is not Ethereum's (rskj-core/.../org/ethereum/vm/GasCost.java).

Rootstock kept roughly the pre-Istanbul schedule and never took EIP-2929 (warm and cold
access), EIP-1559 or EIP-3529: SLOAD 200, BALANCE 400, EXTCODEHASH 400, EXTCODESIZE and
EXTCODECOPY 700, CALL 700, SSTORE 20,000 / 5,000 with a 15,000 refund, refunds capped at half
the gas used. Its CALL and CREATE differ from every Ethereum fork (VM.java, Program.java): no
63/64 rule, the 2,300 stipend is charged to the caller (and returned when unused), and a CALL
to an account that does not exist costs 25,000 whatever the value.
"""

from __future__ import annotations

from explorer.vm.rules import Rules

TRANSACTION = 21_000  # GasCost.TRANSACTION
TRANSACTION_CREATE_CONTRACT = 53_000  # GasCost.TRANSACTION_CREATE_CONTRACT
TX_ZERO_DATA = 4  # GasCost.TX_ZERO_DATA
TX_NO_ZERO_DATA = 68  # GasCost.TX_NO_ZERO_DATA, before RSKIP400
TX_NO_ZERO_DATA_EIP2028 = 16  # GasCost.TX_NO_ZERO_DATA_EIP2028, from RSKIP400
INITCODE_WORD_COST = 2  # GasCost.INITCODE_WORD_COST (InitcodeCostCalculator, RSKIP438)
MAX_CONTRACT_SIZE = 0x6000  # Constants.MAX_CONTRACT_SIZE
MAX_INITCODE_SIZE = 2 * MAX_CONTRACT_SIZE  # Constants.MAX_INITCODE_SIZE (RSKIP438)

CALL = 700  # GasCost.CALL
VT_CALL = 9_000  # GasCost.VT_CALL: a call that moves value
NEW_ACCT_CALL = 25_000  # GasCost.NEW_ACCT_CALL: a CALL to an account that does not exist
STIPEND_CALL = 2_300  # GasCost.STIPEND_CALL
CREATE = 32_000  # GasCost.CREATE
CREATE_DATA = 200  # GasCost.CREATE_DATA: each byte of code a creation leaves
SHA3_WORD = 6  # GasCost.SHA3_WORD (CREATE2 hashes its init code)
SUICIDE = 5_000  # GasCost.SUICIDE
NEW_ACCT_SUICIDE = 25_000  # GasCost.NEW_ACCT_SUICIDE: beneficiary does not exist
SUICIDE_REFUND = 24_000  # GasCost.SUICIDE_REFUND
TLOAD = 100  # GasCost.TLOAD
TSTORE = 100  # GasCost.TSTORE
MAX_REFUND_QUOTIENT = 2  # TransactionExecutor.refundGas: at most gasUsed / 2

MAX_DEPTH = 400  # Program.getMaxDepth from RSKIP150
MAX_DEPTH_BEFORE_RSKIP150 = 1024


def words(size: int) -> int:
    """Return how many 32-byte words hold size bytes."""
    return (size + 31) // 32


def initcode_cost(rules: Rules, size: int) -> int:
    """Gas for init code of size bytes (InitcodeCostCalculator: 2 a word from RSKIP438)."""
    return INITCODE_WORD_COST * words(size) if size and rules.on(438) else 0


def intrinsic_gas(rules: Rules, data: bytes, creation: bool) -> int:
    """Return a transaction's basic cost (Transaction.transactionCost)."""
    non_zero = len(data) - data.count(0)
    per_byte = TX_NO_ZERO_DATA_EIP2028 if rules.on(400) else TX_NO_ZERO_DATA
    base = (
        TRANSACTION_CREATE_CONTRACT + initcode_cost(rules, len(data)) if creation else TRANSACTION
    )
    return base + (len(data) - non_zero) * TX_ZERO_DATA + non_zero * per_byte


def max_depth(rules: Rules) -> int:
    """Return the deepest a call may go (Program.getMaxDepth)."""
    return MAX_DEPTH if rules.on(150) else MAX_DEPTH_BEFORE_RSKIP150
