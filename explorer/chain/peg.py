"""The 2-way peg's constants and network upgrades per network (rskj BridgeXConstants, *.conf)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from types import MappingProxyType

from explorer.chain.btc_address import BTC_MAIN, BTC_REGTEST, BTC_TEST, BtcNetwork

BLOCK_SECONDS = 30  # an RSK block, about
BTC_BLOCK_SECONDS = 600  # a Bitcoin block, about
WEI_PER_SATOSHI = 10**10
LOCKED_SUPPLY_WEI = 21_000_000 * 10**18  # the Bridge started with every RBTC there can be

# The network upgrades that changed the Bridge's events and reads, by the RSKIP that did.
UPGRADE_OF_RSKIP = MappingProxyType(
    {
        134: "Papyrus",  # getLockingCap
        146: "Papyrus",  # Solidity-ABI events instead of RLP with an ASCII topic
        170: "Iris",  # pegin_btc (protocol versions) replaces lock_btc
        181: "Iris",  # rejected_pegin, unrefundable_pegin
        185: "Iris",  # release_request_received (hash160 bytes), release_request_rejected
        271: "Hop",  # batched peg-outs: batch_pegout_created, next peg-out height
        326: "Fingerroot",  # release_request_received with a string address; pegout_confirmed
        375: "Fingerroot",  # signatures keyed by the peg-out's creation transaction
        379: "Arrowhead",  # peg-ins evaluated anew (rejected_pegin before unrefundable_pegin)
        415: "Arrowhead",  # add_signature names the federator's RSK address rightly
        419: "Lovell",  # proposed federation; commit_federation_failed
        427: "Lovell",  # peg-out amounts in wei instead of satoshis
        428: "Lovell",  # pegout_transaction_created (the inputs' values)
        540: "Vetiver",  # getEstimatedFeesForPegOutAmount
        551: "Vetiver",  # unrefundable peg-ins no longer marked as processed
    }
)

MAINNET_UPGRADES = {
    "Papyrus": 2_392_700,
    "Iris": 3_614_800,
    "Hop": 4_598_500,
    "Fingerroot": 5_468_000,
    "Arrowhead": 6_223_700,
    "Lovell": 7_338_024,
    "Vetiver": 8_804_200,
}
TESTNET_UPGRADES = {
    "Papyrus": 863_000,
    "Iris": 2_060_500,
    "Hop": 3_103_000,
    "Fingerroot": 4_015_800,
    "Arrowhead": 4_927_100,
    "Lovell": 6_110_487,
    "Vetiver": 7_604_200,
}
#: The local devnet's Bridge logs the pre-RSKIP146 way below this block and follows every
#: upgrade from it on (devnet/bridge: a legacy era, then today's rules).
DEVNET_UPGRADE_HEIGHT = 3_000
DEVNET_UPGRADES = dict.fromkeys(MAINNET_UPGRADES, DEVNET_UPGRADE_HEIGHT)
REGTEST_UPGRADES = dict.fromkeys(MAINNET_UPGRADES, 0)


@dataclass(frozen=True)
class PegNetwork:
    """What the peg does on one network: Bitcoin side, confirmations, minimums, upgrades."""

    name: str
    btc: BtcNetwork
    upgrades: Mapping[str, int]
    btc_confirmations: int  # Bitcoin blocks before a peg-in can be registered
    pegout_confirmations: int  # RSK blocks between a peg-out's creation and its signing
    pegout_interval: int  # RSK blocks between batched peg-outs
    min_pegin_sat: int
    legacy_min_pegin_sat: int
    min_pegout_sat: int
    remasc_maturity: int  # REMASC in block N pays for block N − maturity
    rsk_labs: str  # who REMASC pays the RSK Labs share to

    def active(self, rskip: int, block: int | None) -> bool:
        """Tell whether an RSKIP is active at block (None: at the chain's tip)."""
        height = self.upgrades.get(UPGRADE_OF_RSKIP[rskip], -1)
        if height < 0:
            return False
        return block is None or block >= height

    def upgrade_text(self, rskip: int) -> str:
        """Return `RSKIP427 (Lovell, block 7,338,024)` for a note on a decoded field."""
        name = UPGRADE_OF_RSKIP[rskip]
        height = self.upgrades.get(name)
        at = f", block {height:,}" if height is not None else ""
        return f"RSKIP{rskip} ({name}{at})"


MAINNET_PEG = PegNetwork(
    "Rootstock Mainnet",
    BTC_MAIN,
    MappingProxyType(MAINNET_UPGRADES),
    btc_confirmations=100,
    pegout_confirmations=4_000,
    pegout_interval=360,
    min_pegin_sat=500_000,
    legacy_min_pegin_sat=1_000_000,
    min_pegout_sat=400_000,
    remasc_maturity=4_000,
    rsk_labs="0xdcb12179ba4697350f66224c959bdd9c282818df",
)
TESTNET_PEG = PegNetwork(
    "Rootstock Testnet",
    BTC_TEST,
    MappingProxyType(TESTNET_UPGRADES),
    btc_confirmations=10,
    pegout_confirmations=10,
    pegout_interval=360,
    min_pegin_sat=500_000,
    legacy_min_pegin_sat=1_000_000,
    min_pegout_sat=250_000,
    remasc_maturity=50,
    rsk_labs="0xdabadabadabadabadabadabadabadabadaba0003",
)
REGTEST_PEG = PegNetwork(
    "RSK regtest",
    BTC_REGTEST,
    MappingProxyType(REGTEST_UPGRADES),
    btc_confirmations=3,
    pegout_confirmations=3,
    pegout_interval=50,
    min_pegin_sat=500_000,
    legacy_min_pegin_sat=1_000_000,
    min_pegout_sat=250_000,
    remasc_maturity=10,
    rsk_labs="0xdabadabadabadabadabadabadabadabadaba0001",
)


def devnet_peg(chain_id: int) -> PegNetwork:
    """Return the local devnet's peg: its network's constants, its own upgrade heights."""
    like = MAINNET_PEG if chain_id == 30 else TESTNET_PEG
    return PegNetwork(
        "Local devnet",
        like.btc,
        MappingProxyType(DEVNET_UPGRADES),
        like.btc_confirmations,
        like.pegout_confirmations,
        like.pegout_interval,
        like.min_pegin_sat,
        like.legacy_min_pegin_sat,
        like.min_pegout_sat,
        like.remasc_maturity,
        like.rsk_labs,
    )


def peg_network(chain_id: int, *, devnet: bool = False) -> PegNetwork:
    """Return the peg of a chain id (30 main, 31 test, else regtest-like); the devnet's own."""
    if devnet:
        return devnet_peg(chain_id)
    return {30: MAINNET_PEG, 31: TESTNET_PEG}.get(chain_id, REGTEST_PEG)
