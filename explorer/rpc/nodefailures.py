"""What a node refused, read from its error code and words, whichever node wrote them.

rskj, the hosted service and Ethereum nodes say the same things differently: rskj's
"transaction nonce too low" (TxValidatorNonceRangeValidator.java) is geth's "nonce too low";
rskj's "Cannot query more than 5000 blocks at once" (LogFilter.java) is another provider's
"block range is too wide". Each failure has one human message, shown whichever words came.
"""

from __future__ import annotations

import enum
import re


class NodeFailure(enum.Enum):
    """A refusal the explorer tells the user about in its own words."""

    METHOD_NOT_FOUND = "the node does not offer this method"
    BAD_PARAMETERS = "the node refused the call's parameters"
    BLOCK_NOT_FOUND = "block not found: the node does not have that block"
    REVERTED = "the execution reverts"
    WRONG_CHAIN = "the transaction is signed for another network (its chain id) or badly signed"
    NONCE_TOO_LOW = "the nonce is already used: the account has sent a transaction with it"
    NONCE_TOO_HIGH = "the nonce is too far ahead of the account's next nonce"
    INSUFFICIENT_FUNDS = "the sender cannot pay the value plus gas × gas price"
    GAS_PRICE_TOO_LOW = "the gas price is below the minimum the node accepts"
    REPLACEMENT_TOO_CHEAP = (
        "a transaction with this nonce is already waiting; a replacement must pay a clearly "
        "higher gas price"
    )
    ALREADY_KNOWN = "the node already has this transaction"
    GAS_ABOVE_BLOCK_LIMIT = "the transaction asks for more gas than a block holds"
    GAS_BELOW_BASIC_COST = "the gas limit is below the transaction's basic cost"
    TRANSACTION_TOO_LARGE = "the transaction is larger than the node accepts"
    NO_SENDER_ACCOUNT = "the sender's account does not exist (it never received funds)"
    LOG_LIMIT = "the node refuses a log query this large: too many blocks or logs at once"
    ANSWER_TOO_LARGE = "the node's answer would be larger than it sends"
    TIMEOUT = "the node gave up: the call took longer than it allows"
    BATCH_TOO_LARGE = "too many calls in one batch for the node"

    @property
    def human(self) -> str:
        """Return the one-line message the user reads."""
        return str(self.value)


# (failure, codes it may come with (empty: any), words in the node's message). Order matters:
# the first match wins, so the specific words come before the general ones.
ANY: frozenset[int] = frozenset()
_RULES: tuple[tuple[NodeFailure, frozenset[int], str], ...] = (
    (NodeFailure.WRONG_CHAIN, ANY, r"invalid chain ?id|chain ?id (does not|doesn't) match"),
    (NodeFailure.WRONG_CHAIN, ANY, r"invalid (transaction )?(v, r, s|signature|sender)"),
    (NodeFailure.REPLACEMENT_TOO_CHEAP, ANY, r"not enough to bump|replacement.*underpriced"),
    (NodeFailure.NONCE_TOO_LOW, ANY, r"nonce too low"),
    (NodeFailure.NONCE_TOO_HIGH, ANY, r"nonce too high|nonce.*exceeds"),
    (NodeFailure.INSUFFICIENT_FUNDS, ANY, r"insufficient (funds|balance)"),
    (NodeFailure.GAS_PRICE_TOO_LOW, ANY, r"gas price lower than|underpriced|gas price too low"),
    (NodeFailure.ALREADY_KNOWN, ANY, r"already (exists|known)|known transaction"),
    (NodeFailure.GAS_ABOVE_BLOCK_LIMIT, ANY, r"higher than the block's gas|exceeds block gas"),
    (NodeFailure.GAS_BELOW_BASIC_COST, ANY, r"basic cost is above|intrinsic gas too low"),
    (NodeFailure.TRANSACTION_TOO_LARGE, ANY, r"size is higher than|oversized data"),
    (NodeFailure.NO_SENDER_ACCOUNT, ANY, r"sender account doesn't exist"),
    (NodeFailure.REVERTED, frozenset({-32015}), r""),
    (NodeFailure.REVERTED, ANY, r"execution reverted|transaction reverted|\brevert\b"),
    (NodeFailure.ANSWER_TOO_LARGE, ANY, r"response size|response is too (big|large)"),
    (NodeFailure.TIMEOUT, ANY, r"time ?out|timed out"),
    (NodeFailure.LOG_LIMIT, frozenset({-32012}), r""),
    (NodeFailure.LOG_LIMIT, ANY, r"more than \d[\d,]* (blocks|logs|results)|block range"),
    (NodeFailure.LOG_LIMIT, ANY, r"too many (logs|results|blocks)|range too (large|wide)"),
    (NodeFailure.BATCH_TOO_LARGE, ANY, r"batch"),
    (NodeFailure.BLOCK_NOT_FOUND, ANY, r"block .*not found|header not found|unknown block"),
    (NodeFailure.BLOCK_NOT_FOUND, ANY, r"invalid block number \d"),
    (NodeFailure.METHOD_NOT_FOUND, frozenset({-32601}), r""),
    (NodeFailure.METHOD_NOT_FOUND, ANY, r"method not (found|supported)|does not exist"),
    (NodeFailure.BAD_PARAMETERS, frozenset({-32602}), r""),
)
_COMPILED = tuple(
    (failure, codes, re.compile(words, re.IGNORECASE)) for failure, codes, words in _RULES
)


def classify(code: int, message: str) -> NodeFailure | None:
    """Return what a node's error stands for, or None when its words are not known."""
    for failure, codes, words in _COMPILED:
        if codes and code not in codes:
            continue
        if words.search(message):
            return failure
    return None
