"""Rootstock's native contracts: where they live, from which RSKIP, and what a call to them costs.

Addresses and activations from rskj's PrecompiledContracts.java; the Bridge's cost per method
from co/rsk/peg/BridgeMethods.java (`fixedCost`) plus 2 gas a byte of call data
(Bridge.getGasForData); REMASC costs nothing (RemascContract.getGasForData). The other native
contracts price each method on its own (co/rsk/pcc/*): the replayer does not model them and
says so. Pure data: no py-evm.
"""

from __future__ import annotations

from dataclasses import dataclass
from types import MappingProxyType

from explorer.chain.bridge_abi import bridge_function
from explorer.vm.rules import Rules


def _address(tail: str) -> bytes:
    """Return the 20-byte address ending in tail (hex)."""
    return bytes.fromhex(tail.rjust(40, "0"))


BRIDGE = _address("01000006")
REMASC = _address("01000008")


@dataclass(frozen=True)
class Native:
    """One native contract: its name, address and the RSKIP that added it (None: always)."""

    name: str
    address: bytes
    rskip: int | None
    modelled_gas: bool  # whether the replayer knows what a call to it costs


NATIVES = (
    Native("Bridge", BRIDGE, None, True),
    Native("REMASC", REMASC, None, True),
    Native("HDWalletUtils", _address("01000009"), 106, False),
    Native("BlockHeader", _address("01000010"), 119, False),
    Native("Environment", _address("01000011"), 203, False),
    Native("secp256k1 addition", _address("01000016"), 516, False),
    Native("secp256k1 multiplication", _address("01000017"), 516, False),
)

#: Ethereum's precompiles and the RSKIP that added each beyond the first five.
PRECOMPILE_RSKIPS = MappingProxyType(
    {1: None, 2: None, 3: None, 4: None, 5: None, 6: 137, 7: 137, 8: 137, 9: 153}
)


PRECOMPILE_NAMES = MappingProxyType(
    {1: "ecrecover", 2: "sha256", 3: "ripemd160", 4: "identity", 5: "modexp", 6: "bn128 add",
     7: "bn128 mul", 8: "bn128 pairing", 9: "blake2f"}
)  # fmt: skip


def special_name(address: bytes) -> str | None:
    """Return the name of a precompiled or native contract's address (None for others)."""
    native = next((n for n in NATIVES if n.address == address), None)
    if native is not None:
        return native.name
    number = int.from_bytes(address, "big")
    return PRECOMPILE_NAMES.get(number) if len(address) == 20 else None


def natives_at(rules: Rules) -> dict[bytes, Native]:
    """Return the native contracts active under rules, by address."""
    return {n.address: n for n in NATIVES if n.rskip is None or rules.on(n.rskip)}


def precompiles_at(rules: Rules) -> tuple[int, ...]:
    """Return the Ethereum precompile numbers active under rules (PrecompiledContracts)."""
    return tuple(n for n, rskip in PRECOMPILE_RSKIPS.items() if rskip is None or rules.on(rskip))


#: BridgeMethods.java: each method's fixedCost, by the method's name.
BRIDGE_COSTS = MappingProxyType(
    {
        "addFederatorPublicKey": 13_000, "addFederatorPublicKeyMultikey": 13_000,
        "addLockWhitelistAddress": 25_000, "addOneOffLockWhitelistAddress": 25_000,
        "addUnlimitedLockWhitelistAddress": 25_000, "addSignature": 70_000,
        "commitFederation": 38_000, "createFederation": 11_000,
        "getBtcBlockchainBestChainHeight": 19_000, "getBtcBlockchainInitialBlockHeight": 20_000,
        "getBtcBlockchainBlockLocator": 76_000, "getBtcBlockchainBlockHashAtDepth": 20_000,
        "getBtcTransactionConfirmations": 22_000, "getBtcTxHashProcessedHeight": 22_000,
        "getFederationAddress": 11_000, "getFederationCreationBlockNumber": 10_000,
        "getFederationCreationTime": 10_000, "getFederationSize": 10_000,
        "getFederationThreshold": 11_000, "getFederatorPublicKey": 10_000,
        "getFederatorPublicKeyOfType": 10_000, "getFeePerKb": 2_000,
        "getLockWhitelistAddress": 16_000, "getLockWhitelistEntryByAddress": 16_000,
        "getLockWhitelistSize": 16_000, "getMinimumLockTxValue": 2_000,
        "getPendingFederationHash": 3_000, "getPendingFederationSize": 3_000,
        "getPendingFederatorPublicKey": 3_000, "getPendingFederatorPublicKeyOfType": 3_000,
        "getRetiringFederationAddress": 3_000, "getRetiringFederationCreationBlockNumber": 3_000,
        "getRetiringFederationCreationTime": 3_000, "getRetiringFederationSize": 3_000,
        "getRetiringFederationThreshold": 3_000, "getRetiringFederatorPublicKey": 3_000,
        "getRetiringFederatorPublicKeyOfType": 3_000, "getProposedFederationAddress": 3_000,
        "getProposedFederationSize": 3_000, "getProposedFederationCreationTime": 3_000,
        "getProposedFederationCreationBlockNumber": 3_000,
        "getProposedFederatorPublicKeyOfType": 3_000, "getStateForBtcReleaseClient": 4_000,
        "getStateForSvpClient": 4_000, "getStateForDebugging": 3_000_000,
        "getLockingCap": 3_000, "getActivePowpegRedeemScript": 30_000,
        "getActiveFederationCreationBlockHeight": 3_000, "increaseLockingCap": 8_000,
        "isBtcTxHashAlreadyProcessed": 23_000, "receiveHeaders": 10_600,
        "registerBtcTransaction": 22_000, "releaseBtc": 23_000,
        "removeLockWhitelistAddress": 24_000, "rollbackFederation": 12_000,
        "setLockWhitelistDisableBlockDelay": 24_000, "updateCollections": 48_000,
        "voteFeePerKbChange": 10_000, "registerBtcCoinbaseTransaction": 10_000,
        "hasBtcBlockCoinbaseTransactionInformation": 5_000,
        "registerFastBridgeBtcTransaction": 25_000, "getBtcBlockchainBestBlockHeader": 3_800,
        "getBtcBlockchainBlockHeaderByHash": 4_600, "getBtcBlockchainBlockHeaderByHeight": 5_000,
        "getBtcBlockchainParentBlockHeaderByHash": 4_900,
        "getNextPegoutCreationBlockNumber": 3_000, "getQueuedPegoutsCount": 3_000,
        "getEstimatedFeesForNextPegOutEvent": 10_000, "getEstimatedFeesForPegOutAmount": 10_000,
    }
)  # fmt: skip
RELEASE_BTC = "releaseBtc"  # what empty call data (or an unknown method) is priced as


def _bridge_selectors() -> dict[bytes, str]:
    """Return the Bridge methods the bundled ABI knows, by selector."""
    table: dict[bytes, str] = {}
    for name in BRIDGE_COSTS:
        try:
            table[bridge_function(name).key] = name
        except KeyError:  # a method the bundled ABI lacks: priced as an unknown one
            continue
    return table


_SELECTORS: dict[bytes, str] = {}


def bridge_method(data: bytes) -> str | None:
    """Return the name of the Bridge method call data names (None: empty or unknown)."""
    if not _SELECTORS:
        _SELECTORS.update(_bridge_selectors())
    return _SELECTORS.get(data[:4]) if len(data) >= 4 else None


def bridge_gas(data: bytes) -> int:
    """Gas of a call into the Bridge (Bridge.getGasForData)."""
    name = bridge_method(data)
    if name is None:
        return BRIDGE_COSTS[RELEASE_BTC]
    return BRIDGE_COSTS[name] + 2 * len(data)


def bridge_reads(data: bytes) -> bool:
    """Tell whether a Bridge call only reads (a getter: `get…`, `is…`, `has…`)."""
    name = bridge_method(data)
    return name is not None and name.startswith(("get", "is", "has"))


def native_gas(address: bytes, data: bytes) -> int | None:
    """Gas of a call into a native contract, or None when the replayer does not model it."""
    if address == BRIDGE:
        return bridge_gas(data)
    if address == REMASC:
        return 0
    return None
