"""The devnet Bridge at genesis: the federation's coins, a peg-out left to sign, the constants."""

from __future__ import annotations

from eth_hash.auto import keccak

from explorer.chain.btc_address import p2pkh_address, p2pkh_script
from explorer.chain.peg import LOCKED_SUPPLY_WEI, WEI_PER_SATOSHI, devnet_peg
from explorer.devnet.bridge_bitcoin import build_release
from explorer.devnet.bridge_state import BRIDGE_ADDRESS, BridgeState, Pending, Utxo, genesis_storage

SATOSHI_PER_BTC = 100_000_000
FEE_PER_KB = 24_000  # satoshis per 1,000 bytes
LOCKING_CAP = 1_000 * SATOSHI_PER_BTC
BTC_HEIGHT = {30: 870_000, 31: 2_800_000}  # the Bridge's Bitcoin tip at genesis
GENESIS_COINS = 4  # federation outputs of 5 BTC each, from before the devnet's history
LEGACY_PEGOUT_SAT = 2 * SATOSHI_PER_BTC


def _coin(index: int) -> Utxo:
    """Return one of the federation's outputs from before genesis."""
    return Utxo(keccak(b"explorer-devnet:genesis-peg-in:%d" % index), 0, 5 * SATOSHI_PER_BTC)


def legacy_pegout(chain_id: int) -> Pending:
    """Return the peg-out the federation still signs when the devnet starts (pre-RSKIP146)."""
    coin = _coin(GENESIS_COINS)
    receiver = p2pkh_script(keccak(b"explorer-devnet:legacy-receiver")[:20])
    tx = build_release(
        [(coin.txid, coin.index, coin.value)], [(receiver, LEGACY_PEGOUT_SAT)], FEE_PER_KB
    )
    return Pending(tx.serialize(), 0, keccak(b"explorer-devnet:legacy-release"), (coin.value,))


def legacy_receiver(chain_id: int) -> str:
    """Return the Bitcoin address the legacy peg-out pays."""
    net = devnet_peg(chain_id).btc
    return p2pkh_address(keccak(b"explorer-devnet:legacy-receiver")[:20], net)


def bridge_account(chain_id: int) -> tuple[bytes, dict[str, object]]:
    """Return the Bridge's genesis account: RBTC not yet pegged in, and its stored state."""
    coins = tuple(_coin(i) for i in range(GENESIS_COINS))
    state = BridgeState(
        btc_best_height=BTC_HEIGHT.get(chain_id, 2_800_000),
        fee_per_kb=FEE_PER_KB,
        locking_cap=LOCKING_CAP,
        utxos=coins,
        signing=(legacy_pegout(chain_id),),
    )
    locked = sum(c.value for c in coins) + _coin(GENESIS_COINS).value
    balance = LOCKED_SUPPLY_WEI - locked * WEI_PER_SATOSHI
    account = {"balance": balance, "nonce": 0, "code": b"", "storage": genesis_storage(state)}
    return bytes(BRIDGE_ADDRESS), account
