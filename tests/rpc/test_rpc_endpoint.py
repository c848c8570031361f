"""Endpoint: URL forms, key splitting, redaction and the http:// rule."""

from __future__ import annotations

import pytest

from explorer.rpc.endpoint import Endpoint, UrlForm
from explorer.rpc.errors import ErrorKind, InvalidInput

KEY = "AbCdEfGh0123456789wxyz"
BASE = "https://rpc.testnet.rootstock.io"


@pytest.mark.parametrize(
    ("url", "form", "base"),
    [
        (f"{BASE}/{KEY}", UrlForm.KEY, BASE),
        (f"{BASE}/{KEY}/", UrlForm.KEY, BASE),
        (f"{BASE}/v2/{KEY}", UrlForm.V2_KEY, BASE),
        (f"  {BASE}/api/{KEY}  ", UrlForm.KEY, f"{BASE}/api"),
    ],
)
def test_parse_splits_key_from_pasted_url(url: str, form: UrlForm, base: str) -> None:
    """A key pasted as the last path segment is split off; v2 is recognised."""
    endpoint = Endpoint.parse(url)
    assert (endpoint.api_key, endpoint.url_form, endpoint.base_url) == (KEY, form, base)
    assert endpoint.url == url.strip().rstrip("/")


def test_parse_without_key_is_no_key_form() -> None:
    """A bare host (public node) has no key."""
    endpoint = Endpoint.parse("https://public-node.testnet.rsk.co")
    assert endpoint.url_form is UrlForm.NO_KEY
    assert endpoint.api_key is None
    assert endpoint.url == endpoint.redacted == "https://public-node.testnet.rsk.co"


def test_parse_with_explicit_key_strips_duplicate_segment() -> None:
    """An explicit key is appended once, even when the URL already ends with it."""
    assert Endpoint.parse(f"{BASE}/{KEY}", KEY).url == f"{BASE}/{KEY}"
    assert Endpoint.parse(BASE, KEY).url == f"{BASE}/{KEY}"
    assert Endpoint.parse(f"{BASE}/v2", KEY).url == f"{BASE}/v2/{KEY}"


def test_split_key_false_keeps_the_path() -> None:
    """split_key=False treats the whole URL as a keyless endpoint."""
    endpoint = Endpoint.parse("http://127.0.0.1:4444/rpc", split_key=False)
    assert endpoint.url == "http://127.0.0.1:4444/rpc"
    assert endpoint.url_form is UrlForm.NO_KEY


def test_redacted_forms_never_show_the_key() -> None:
    """Long keys show their last four characters; short ones not even that."""
    assert Endpoint.parse(f"{BASE}/{KEY}").redacted == f"{BASE}/••••wxyz"
    assert Endpoint.parse(f"{BASE}/v2/{KEY}").redacted == f"{BASE}/v2/••••wxyz"
    assert Endpoint.parse(f"{BASE}/short").redacted == f"{BASE}/<key>"
    endpoint = Endpoint.parse(f"{BASE}/{KEY}")
    for text in (repr(endpoint), str(endpoint), endpoint.redacted):
        assert KEY not in text


@pytest.mark.parametrize(
    "url",
    [
        f"http://127.0.0.1:4444/{KEY}",
        f"http://localhost:4444/{KEY}",
        f"http://[::1]:4444/{KEY}",
        f"http://127.8.9.10/{KEY}",
    ],
)
def test_http_to_loopback_is_allowed(url: str) -> None:
    """Plain http to this machine is fine and not flagged."""
    assert not Endpoint.parse(url).is_insecure


def test_http_to_another_host_needs_explicit_permission() -> None:
    """Plain http elsewhere would leak the key: refused unless allowed, then flagged."""
    with pytest.raises(InvalidInput) as caught:
        Endpoint.parse(f"http://node.example.org/{KEY}")
    assert caught.value.kind is ErrorKind.INVALID_INPUT
    assert KEY not in caught.value.message
    endpoint = Endpoint.parse(f"http://node.example.org/{KEY}", allow_insecure_http=True)
    assert endpoint.is_insecure
    assert not Endpoint.parse(f"{BASE}/{KEY}").is_insecure


@pytest.mark.parametrize(
    "url",
    [
        "ftp://host/key",
        "rpc.testnet.rootstock.io/key",
        "https:///key",
        f"https://user:pw@host/{KEY}",
        f"https://host/{KEY}?x=1",
        f"https://host/{KEY}#frag",
        "https://[::1/key",
        "https://host/bad%20key",
    ],
)
def test_invalid_urls_are_input_errors_without_the_key(url: str) -> None:
    """Unusable URLs raise InvalidInput; the message does not echo the URL's key."""
    with pytest.raises(InvalidInput) as caught:
        Endpoint.parse(url)
    assert KEY not in caught.value.message


def test_direct_construction_checks_key_and_form() -> None:
    """A key needs a key form and vice versa."""
    with pytest.raises(InvalidInput):
        Endpoint(BASE, None, UrlForm.KEY)
    with pytest.raises(InvalidInput):
        Endpoint(BASE, KEY, UrlForm.NO_KEY)
    assert Endpoint(BASE, KEY, UrlForm.V2_KEY).url == f"{BASE}/v2/{KEY}"
