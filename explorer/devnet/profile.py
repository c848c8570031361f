"""The devnet's two faces: the hosted service of the spec, and a bare rskj 9 node.

docs/service.md §15 lists every rule with the profile that has it and the rskj source that
backs it. Where the spec says nothing, both profiles behave as rskj does.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass, field

from explorer.devnet.errors import METHOD_NOT_FOUND_TEXT
from explorer.devnet.limits import LogLimits, LogRule

#: `web3_clientVersion`, shaped as rskj writes it (Web3Impl): version, OS, Java, release.
CLIENT_VERSION = "RskJ/9.0.3/Linux/Java21/VETIVER-devnet"


class Profile(enum.Enum):
    """Which node the devnet stands in for."""

    SERVICE = "service"
    RSKJ = "rskj"


# Parameter counts each method accepts. rskj matches a Java overload by its exact count
# (jsonrpc4j JsonRpcBasicServer; the overloads are co/rsk/rpc/Web3EthModule.java); the
# service also takes the forms its description calls optional (§4.2).
_NONE = frozenset({0})
_ONE = frozenset({1})
_TWO = frozenset({2})
RSKJ_FORMS: dict[str, frozenset[int]] = {
    "eth_accounts": _NONE,
    "eth_blockNumber": _NONE,
    "eth_chainId": _NONE,
    "eth_gasPrice": _NONE,
    "eth_protocolVersion": _NONE,
    "net_version": _NONE,
    "web3_clientVersion": _NONE,
    "web3_sha3": _ONE,
    "eth_getBalance": frozenset({1, 2}),
    "eth_getTransactionCount": _TWO,
    "eth_getCode": _TWO,
    "eth_getStorageAt": frozenset({3}),
    "eth_getBlockByHash": _TWO,
    "eth_getBlockByNumber": _TWO,
    "eth_getBlockTransactionCountByHash": _ONE,
    "eth_getBlockTransactionCountByNumber": _ONE,
    "eth_getUncleCountByBlockHash": _ONE,
    "eth_getUncleCountByBlockNumber": _ONE,
    "eth_getTransactionByBlockHashAndIndex": _TWO,
    "eth_getTransactionByBlockNumberAndIndex": _TWO,
    "eth_getTransactionByHash": _ONE,
    "eth_getTransactionReceipt": _ONE,
    "eth_getLogs": _ONE,
    "eth_call": frozenset({2, 3}),
    "eth_estimateGas": frozenset({1, 2}),
    "eth_sendRawTransaction": _ONE,
    "evm_mine": _NONE,
    "evm_startMining": _NONE,
    "evm_stopMining": _NONE,
    "devnet_reorganise": _ONE,  # answered with `explorer devnet --control` only (reorg.py)
}
#: The methods of rskj's personal module (Web3.java), by parameter count.
PERSONAL_FORMS: dict[str, int] = {
    "personal_newAccountWithSeed": 1,
    "personal_newAccount": 1,
    "personal_listAccounts": 0,
    "personal_importRawKey": 2,
    "personal_sendTransaction": 2,
    "personal_unlockAccount": 3,
    "personal_lockAccount": 1,
    "personal_dumpRawKey": 1,
}
DB_METHODS = ("db_putString", "db_getString", "db_putHex", "db_getHex")
#: What a bare rskj 9 serves beyond the service's methods: the rskj profile only
#: (rskjmethods.py; docs/service.md §15.8).
RSKJ_ONLY_FORMS: dict[str, frozenset[int]] = {
    **dict.fromkeys(
        ("eth_newFilter", "eth_uninstallFilter", "eth_getFilterChanges", "eth_getFilterLogs"),
        _ONE,
    ),
    **dict.fromkeys(("eth_newBlockFilter", "eth_newPendingTransactionFilter"), _NONE),
    **dict.fromkeys(
        (
            "eth_syncing",
            "eth_mining",
            "eth_coinbase",
            "eth_hashrate",
            "eth_netHashrate",
            "eth_getCompilers",
            "eth_pendingTransactions",
            "net_listening",
            "net_peerCount",
            "net_peerList",
            "rsk_protocolVersion",
            "rpc_modules",
            "txpool_content",
            "txpool_inspect",
            "txpool_status",
            *DB_METHODS,
        ),
        _NONE,
    ),
    "eth_sign": _TWO,
    "eth_sendTransaction": _ONE,
    **dict.fromkeys(
        (
            "rsk_getRawBlockHeaderByHash",
            "rsk_getRawBlockHeaderByNumber",
            "rsk_getRawTransactionReceiptByHash",
        ),
        _ONE,
    ),
    **{name: frozenset({count}) for name, count in PERSONAL_FORMS.items()},
}
#: The other methods of rskj 9's Web3 interfaces: not served, -32601 in rskj's words for a
#: method it has but does not offer (docs/service.md §15.8 gives each one's reason).
RSKJ_UNSERVED = frozenset(
    {
        "eth_bridgeState",
        "eth_compileLLL",
        "eth_compileSerpent",
        "eth_compileSolidity",
        "eth_getUncleByBlockHashAndIndex",
        "eth_getUncleByBlockNumberAndIndex",
        "eth_submitHashrate",
        "eth_submitWork",
        "evm_increaseTime",
        "evm_reset",
        "evm_revert",
        "evm_snapshot",
        "rsk_flush",
        "rsk_getStorageBytesAt",
        "rsk_getTransactionReceiptNodesByHash",
        "rsk_shutdown",
        "mnr_getWork",
        "mnr_submitBitcoinBlock",
        "mnr_submitBitcoinBlockPartialMerkle",
        "mnr_submitBitcoinBlockTransactions",
        "debug_accountTransactionQuota",
        "debug_traceBlockByHash",
        "debug_traceBlockByNumber",
        "debug_traceTransaction",
        "debug_wireProtocolQueueSize",
        "trace_block",
        "trace_filter",
        "trace_get",
        "trace_transaction",
        "sco_banAddress",
        "sco_bannedAddresses",
        "sco_clearPeerScoring",
        "sco_peerList",
        "sco_reputationSummary",
        "sco_unbanAddress",
    }
)
#: rskj's trace methods (Web3DebugModule, Web3TraceModule): its debug and trace modules are off
#: in reference.conf, so the rskj profile serves them only when started with --trace.
TRACE_FORMS: dict[str, frozenset[int]] = {
    "debug_traceTransaction": frozenset({1, 2}),
    "trace_transaction": _ONE,
}
#: What the service's description adds: an optional trailing block or boolean (§4.2).
SPEC_OPTIONAL_FORMS: dict[str, frozenset[int]] = {
    "eth_getTransactionCount": _ONE,
    "eth_getBlockByHash": _ONE,
    "eth_getBlockByNumber": _ONE,
}


@dataclass(frozen=True)
class PoolPolicy:
    """rskj's pool settings (reference.conf `transaction.*`), shortened by tests at will."""

    expiry_blocks: int = 10  # outdated.threshold: dropped once the head is this far past
    expiry_seconds: int = 650  # outdated.timeout; 0 = never by time
    price_bump_percent: int = 40  # gasPriceBump: a same-nonce replacement pays this much more
    account_slots: int = 16  # accountSlots: nonces accepted ahead of the account's


@dataclass(frozen=True)
class NodeRules:
    """Everything that differs between the profiles, as the node applies it."""

    profile: Profile = Profile.SERVICE
    log_limits: LogLimits = field(default_factory=LogLimits)
    pool: PoolPolicy = field(default_factory=PoolPolicy)
    trace: bool = False  # rskj's debug and trace modules enabled (the rskj profile only)

    @property
    def _traces(self) -> dict[str, frozenset[int]]:
        """Return the trace methods' forms this node serves (none unless enabled)."""
        return TRACE_FORMS if self.is_rskj and self.trace else {}

    @property
    def is_rskj(self) -> bool:
        """Tell whether the node stands in for a bare rskj node."""
        return self.profile is Profile.RSKJ

    def serves(self, method: str) -> bool:
        """Tell whether the profile offers a method (the rskj-only ones on the rskj profile)."""
        served = method in RSKJ_FORMS or method in self._traces
        return served or (self.is_rskj and method in RSKJ_ONLY_FORMS)

    def accepts(self, method: str, count: int) -> bool:
        """Tell whether a call of method with count parameters matches a form."""
        forms = RSKJ_FORMS.get(method, frozenset()) | RSKJ_ONLY_FORMS.get(method, frozenset())
        forms = forms | self._traces.get(method, frozenset())
        if not self.is_rskj:
            forms = forms | SPEC_OPTIONAL_FORMS.get(method, frozenset())
        return count in forms

    def not_found(self, method: str) -> str:
        """Return the words of -32601 for a method not served.

        rskj's own (RskErrorResolver) for a method it has but does not offer.
        """
        if self.is_rskj and method in RSKJ_UNSERVED:
            return f"the method {method} does not exist/is not available"
        return METHOD_NOT_FOUND_TEXT


#: The most parameters each method takes (its handler's arguments).
MOST_PARAMS = {
    name: max(forms) for name, forms in {**RSKJ_FORMS, **RSKJ_ONLY_FORMS, **TRACE_FORMS}.items()
}


def default_log_limits(profile: Profile) -> LogLimits:
    """Return the eth_getLogs limits of a profile.

    The service's §8 rule, or rskj's reference.conf.
    """
    if profile is Profile.RSKJ:
        return LogLimits(max_blocks=5000, max_logs=20000, rule=LogRule.RSKJ)
    return LogLimits()


def rules_for(
    profile: Profile,
    *,
    max_log_blocks: int | None = None,
    max_logs: int | None = None,
    pool: PoolPolicy | None = None,
    trace: bool = False,
) -> NodeRules:
    """Return the rules of a profile, with the log limits and pool settings given instead."""
    limits = default_log_limits(profile)
    limits = LogLimits(
        max_blocks=limits.max_blocks if max_log_blocks is None else max_log_blocks,
        max_logs=limits.max_logs if max_logs is None else max_logs,
        rule=limits.rule,
    )
    return NodeRules(profile, limits, pool or PoolPolicy(), trace)
