"""The per-key daily quota: batches count per request, 429 with Retry-After, per key."""

from __future__ import annotations

import time

import httpx

from explorer.devnet.server import seconds_to_utc_midnight
from tests.helpers.devnet import LIMITED_KEYS, LIMITED_QUOTA, Devnet
from tests.helpers.devnet_client import JSON_HEADERS, RawRpc, assert_error_body, batch_of


def test_quota_counts_batch_items_and_answers_429(
    devnet_limited: Devnet, http: httpx.Client, rpc_limited: RawRpc
) -> None:
    """A spent quota answers 429 with Retry-After to UTC midnight; other keys go on."""
    url = f"{devnet_limited.base()}/v2/{LIMITED_KEYS[1]}"
    assert LIMITED_QUOTA % 50 == 0
    for _ in range(LIMITED_QUOTA // 50):
        response = http.post(url, json=batch_of(50), headers=JSON_HEADERS)
        assert response.status_code == 200
        assert len(response.json()) == 50
    refused = http.post(url, json=batch_of(1)[0], headers=JSON_HEADERS)
    expected = seconds_to_utc_midnight(time.time())
    assert_error_body(refused, 429)
    assert abs(int(refused.headers["retry-after"]) - expected) <= 5
    assert LIMITED_KEYS[1] not in refused.text
    assert rpc_limited("eth_chainId") == "0x1f"
