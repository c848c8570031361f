"""Which of Rootstock's VM rules hold at a block of a network: upgrades by height, RSKIPs by each.

Pure data, no py-evm: the command line and the pages read it without loading the VM. Heights
are rskj's (rskj-core/src/main/resources/config/main.conf, testnet.conf, regtest.conf:
`hardforkActivationHeights`); which upgrade activates each RSKIP is reference.conf's
`blockchain.config.consensusRules`. The devnet follows regtest: every upgrade from block 0.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from types import MappingProxyType


class RuleSet(enum.Enum):
    """The networks whose upgrade heights differ (a devnet or regtest node: all from block 0)."""

    MAINNET = "mainnet"
    TESTNET = "testnet"
    REGTEST = "regtest"


#: The upgrades the VM rules depend on, oldest first (rskj's names in its .conf files).
UPGRADES = (
    "orchid",
    "orchid060",
    "wasabi100",
    "twoToThree",
    "papyrus200",
    "iris300",
    "hop400",
    "fingerroot500",
    "arrowhead600",
    "lovell700",
    "reed800",
    "vetiver900",
)

#: hardforkActivationHeights of config/main.conf and config/testnet.conf (regtest: all 0).
HEIGHTS = MappingProxyType(
    {
        RuleSet.MAINNET: MappingProxyType(
            dict(
                zip(
                    UPGRADES,
                    (729_000, 1_052_700, 1_591_000, 2_018_000, 2_392_700, 3_614_800, 4_598_500,
                     5_468_000, 6_223_700, 7_338_024, 8_052_200, 8_804_200),
                    strict=True,
                )
            )
        ),
        RuleSet.TESTNET: MappingProxyType(
            dict(
                zip(
                    UPGRADES,
                    (0, 0, 0, 504_000, 863_000, 2_060_500, 3_103_000, 4_015_800, 4_927_100,
                     6_110_487, 6_835_700, 7_604_200),
                    strict=True,
                )
            )
        ),
        RuleSet.REGTEST: MappingProxyType(dict.fromkeys(UPGRADES, 0)),
    }
)  # fmt: skip

#: The RSKIPs the VM definition follows and the upgrade that activates each (reference.conf).
RSKIP_UPGRADE = MappingProxyType(
    {
        90: "orchid",  # EXTCODESIZE of a precompile is 2^256-1; precompiles set return data
        91: "orchid",  # STATICCALL, and writes refused inside it
        103: "orchid060",  # STATICCALL pops no value
        106: "wasabi100",  # HDWalletUtils native contract
        119: "wasabi100",  # BlockHeader native contract
        120: "wasabi100",  # SHL, SHR, SAR
        125: "wasabi100",  # CREATE2; a contract created by CREATE starts at nonce 1
        137: "papyrus200",  # alt_bn128 add, mul, pairing at 0x06-0x08
        140: "papyrus200",  # EXTCODEHASH
        150: "twoToThree",  # call depth limit 400 instead of 1024
        151: "papyrus200",  # SELFBALANCE
        152: "papyrus200",  # CHAINID
        153: "iris300",  # BLAKE2F at 0x09
        171: "iris300",  # a call that makes no frame clears the return data
        191: "iris300",  # DUPN, SWAPN, TXINDEX removed
        197: "iris300",  # a failing precompile returns its unused gas
        203: "arrowhead600",  # Environment native contract
        398: "arrowhead600",  # PUSH0
        400: "arrowhead600",  # 16 gas a non-zero calldata byte instead of 68
        412: "arrowhead600",  # BASEFEE (the block's minimum gas price)
        438: "lovell700",  # initcode: 2 gas a word, at most 0xC000 bytes
        445: "lovell700",  # MCOPY
        446: "lovell700",  # TLOAD, TSTORE
        516: "reed800",  # secp256k1 add and mul at …01000016/17
        544: "vetiver900",  # new code starting with 0xEF refused
    }
)
OLDEST = "orchid"  # replays before Orchid are refused: rules older than it are not modelled


class UnsupportedHeight(ValueError):
    """The block is older than the oldest rules the VM models."""


@dataclass(frozen=True)
class Rules:
    """The RSKIPs active at one block of one network: what the VM runs by."""

    rule_set: RuleSet
    active: frozenset[int]

    def on(self, rskip: int) -> bool:
        """Tell whether an RSKIP is active."""
        return rskip in self.active

    @property
    def key(self) -> str:
        """A short name of these rules, for caches and for what a page says it replayed by."""
        return f"{self.rule_set.value}:{','.join(str(n) for n in sorted(self.active))}"


def rules_at(rule_set: RuleSet, block: int) -> Rules:
    """Return the rules of a block (UnsupportedHeight before Orchid)."""
    heights = HEIGHTS[rule_set]
    if block < heights[OLDEST]:
        raise UnsupportedHeight(
            f"block {block:,} is older than Orchid (block {heights[OLDEST]:,} on "
            f"{rule_set.value}): the replayer models Rootstock's rules from Orchid on"
        )
    upgraded = {name for name, height in heights.items() if 0 <= height <= block}
    return Rules(rule_set, frozenset(n for n, name in RSKIP_UPGRADE.items() if name in upgraded))


#: Block 0 of each public chain (also in services/networks.py, from rskj's GenesisHashesTest).
_GENESIS = {
    (30, "0xf88529d4ab262c0f4d042e9d8d3f2472848eaafe1a9b7213f57617eb40a9f9e0"): RuleSet.MAINNET,
    (31, "0xcabb7fbe88cd6d922042a32ffc08ce8b1fbb37d650b9d4e7dbfe2a7469adfa42"): RuleSet.TESTNET,
}


def rule_set_of(chain_id: int, genesis_hash: str | None) -> RuleSet:
    """Return whose upgrade heights a chain follows: Rootstock's own by genesis, else regtest's."""
    return _GENESIS.get((chain_id, (genesis_hash or "").lower()), RuleSet.REGTEST)


REGTEST_RULES = rules_at(RuleSet.REGTEST, 0)  # the devnet's: every upgrade from block 0
