"""Any JSON a user types on the command line is either accepted or an InvalidInput."""

from __future__ import annotations

from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from explorer.rpc.errors import InvalidInput
from explorer.rpc.methods import METHODS

HEXISH = st.text(alphabet="0123456789abcdefxX", max_size=70).map(lambda s: "0x" + s)
JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**70), max_value=2**70)
    | st.floats(allow_nan=False)
    | st.text(max_size=20)
    | HEXISH
    | st.sampled_from(["latest", "earliest", "pending"]),
    lambda inner: (
        st.lists(inner, max_size=5)
        | st.dictionaries(
            st.sampled_from(["to", "from", "data", "topics", "blockHash", "fromBlock", "x"]),
            inner,
            max_size=4,
        )
    ),
    max_leaves=12,
)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(sorted(METHODS)), st.lists(JSON, max_size=4))
def test_checkers_accept_or_raise_invalid_input(method: str, args: list[Any]) -> None:
    """No parameter, however odd, escapes as anything but InvalidInput."""
    try:
        checked = METHODS[method].check(args)
    except InvalidInput as error:
        assert error.message
        assert "\n" not in error.message
    else:
        assert len(checked) <= len(args)
