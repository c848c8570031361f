"""Whatever a server answers, the client returns a result or raises one of its error kinds."""

from __future__ import annotations

import json
from typing import Any

import httpx
from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.rpc.answers import result_of
from explorer.rpc.errors import RpcError
from explorer.rpc.transport import HttpAnswer

KEY = "SecretKey0123456789"
URL = httpx.URL(f"https://rpc.testnet.rootstock.io/{KEY}")
SCALARS = st.none() | st.booleans() | st.integers() | st.floats() | st.text(max_size=10)
JSON = st.recursive(
    SCALARS,
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.dictionaries(
            st.sampled_from(["jsonrpc", "id", "result", "error", "code", "message", "data"]),
            inner,
            max_size=5,
        )
    ),
    max_leaves=10,
)
BODIES = JSON.map(lambda value: json.dumps(value).encode()) | st.binary(max_size=64)
HEADERS = st.dictionaries(
    st.sampled_from(["content-type", "retry-after", "location", "content-length"]),
    st.text(alphabet=st.characters(codec="ascii", exclude_categories=["Cc"]), max_size=30),
    max_size=3,
)


@settings(max_examples=400, deadline=None)
@given(
    st.sampled_from([200, 201, 204, 301, 307, 400, 401, 403, 404, 415, 429, 500, 503]),
    BODIES,
    HEADERS,
)
def test_any_answer_is_a_result_or_an_rpc_error(status: int, body: bytes, headers: Any) -> None:
    """No answer escapes as another exception; no message holds the URL's key."""
    answer = HttpAnswer(status, "Reason", httpx.Headers(headers), body)
    try:
        result_of(answer, URL, 1)
    except RpcError as error:
        assert KEY not in error.message
        assert "\n" not in error.message
