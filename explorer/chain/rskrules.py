"""Which consensus rules shape a Rootstock block at a height, per network.

The heights are rskj's (rsksmart/rskj): `rskj-core/src/main/resources/reference.conf` maps each
RSKIP to a network upgrade, and `config/main.conf`, `config/testnet.conf`, `config/regtest.conf`
give each upgrade's height (and override a few RSKIPs). `ActivationConfig.isActive` holds a rule
active from its height on; -1 (here None) never. Only the rules that change how a block is
encoded, hashed or merge mined are kept.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Block 0 of each public chain (rskj-core/src/test/java/org/ethereum/core/genesis/
#: GenesisHashesTest.java): compared, never recomputed (their difficulty's RLP is special).
MAINNET_GENESIS = "0xf88529d4ab262c0f4d042e9d8d3f2472848eaafe1a9b7213f57617eb40a9f9e0"
TESTNET_GENESIS = "0xcabb7fbe88cd6d922042a32ffc08ce8b1fbb37d650b9d4e7dbfe2a7469adfa42"


@dataclass(frozen=True)
class NetworkRules:
    """Activation heights of the rules a block's encoding depends on (None: never active)."""

    name: str
    chain_id: int
    genesis_hash: str | None
    rskip92: int | None  # orchid: the hash covers the Bitcoin header only, not proof and coinbase
    rskip98: int | None  # orchid: no fallback (signed, unmined) blocks
    rskip110: int | None  # wasabi100: hashForMergedMining ends with fork detection data
    rskip126: int | None  # wasabi100: tries hashed in the Unitrie format (RSKIP107), not Orchid's
    rskip_umm: int | None  # papyrus200: the header carries ummRoot
    rskip144: int | None  # reed810: parallel execution edges in the header
    rskip351: int | None  # reed810: versioned headers, the extension in place of the bloom
    rskip535: int | None  # the base event: header version 2

    @staticmethod
    def _on(height: int | None, number: int) -> bool:
        """Tell whether a rule active from height is active at block number."""
        return height is not None and 0 <= height <= number

    def merge_mining_compressed(self, number: int) -> bool:
        """RSKIP92: the hash leaves out the merkle proof and the coinbase."""
        return self._on(self.rskip92, number)

    def fallback_mining_possible(self, number: int) -> bool:
        """Before RSKIP98 a block could be signed by the fallback key instead of mined."""
        return not self._on(self.rskip98, number)

    def fork_detection_data(self, number: int) -> bool:
        """RSKIP110 (from block 449, MiningConfig): hashForMergedMining's last 12 bytes."""
        return self._on(self.rskip110, number) and number >= FORK_DETECTION_FROM

    def unitrie_hashes(self, number: int) -> bool:
        """RSKIP126: the transaction and receipt tries hash in the current format."""
        return self._on(self.rskip126, number)

    def has_umm_root(self, number: int) -> bool:
        """RSKIPUMM: the header has an ummRoot field (usually empty)."""
        return self._on(self.rskip_umm, number)

    def header_version(self, number: int) -> int:
        """ActivationConfig.getHeaderVersion: 0, 1 (RSKIP351) or 2 (RSKIP351 and RSKIP535)."""
        if not self._on(self.rskip351, number):
            return 0
        return 2 if self._on(self.rskip535, number) else 1

    def has_edges(self, number: int) -> bool:
        """RSKIP351 and RSKIP144: the header has the parallel execution edges."""
        return self._on(self.rskip351, number) and self._on(self.rskip144, number)


#: MiningConfig.REQUIRED_NUMBER_OF_BLOCKS_FOR_FORK_DETECTION_CALCULATION.
FORK_DETECTION_FROM = 449

# main.conf: orchid 729000, wasabi100 1591000, papyrus200 2392700, reed810 -1; rskip535 -1.
MAINNET_RULES = NetworkRules(
    name="mainnet",
    chain_id=30,
    genesis_hash=MAINNET_GENESIS,
    rskip92=729_000,
    rskip98=729_000,
    rskip110=1_591_000,
    rskip126=1_591_000,
    rskip_umm=2_392_700,
    rskip144=None,
    rskip351=None,
    rskip535=None,
)
# testnet.conf: orchid and wasabi100 0, papyrus200 863000, reed810 7139600; rskip535 7604200.
TESTNET_RULES = NetworkRules(
    name="testnet",
    chain_id=31,
    genesis_hash=TESTNET_GENESIS,
    rskip92=0,
    rskip98=0,
    rskip110=0,
    rskip126=0,
    rskip_umm=863_000,
    rskip144=7_139_600,
    rskip351=7_139_600,
    rskip535=7_604_200,
)
# regtest.conf: every upgrade at 0; rskipUMM, rskip144, rskip351 and rskip535 at 1.
REGTEST_RULES = NetworkRules(
    name="regtest",
    chain_id=33,
    genesis_hash=None,
    rskip92=0,
    rskip98=0,
    rskip110=0,
    rskip126=0,
    rskip_umm=1,
    rskip144=1,
    rskip351=1,
    rskip535=1,
)
RULES_BY_CHAIN = {rules.chain_id: rules for rules in (MAINNET_RULES, TESTNET_RULES, REGTEST_RULES)}


def rules_for_chain(chain_id: int) -> NetworkRules | None:
    """Return the rules of a chain id rskj ships a configuration for, else None."""
    return RULES_BY_CHAIN.get(chain_id)
