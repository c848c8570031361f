"""Where the service lives: base URL, API key and URL form, with a redacted form for display."""

from __future__ import annotations

import enum
import ipaddress
import re
from dataclasses import dataclass, field
from urllib.parse import urlsplit

from explorer.chain.secrets import KEY_CHARACTERS, MASK, REDACTED
from explorer.rpc.errors import InvalidInput

_KEY_CHARS = re.compile(f"[{KEY_CHARACTERS}]+")


class UrlForm(enum.Enum):
    """How the API key goes into the request path."""

    KEY = "{base}/<KEY>"
    V2_KEY = "{base}/v2/<KEY>"
    NO_KEY = "{base}"


def is_loopback_host(host: str) -> bool:
    """Tell whether host names this machine (localhost, 127.0.0.0/8, ::1)."""
    if host.lower() == "localhost" or host.lower().endswith(".localhost"):
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def mask_key(key: str) -> str:
    """Return a display form of a key: its last four characters when long, else `<key>`."""
    return MASK + key[-4:] if len(key) >= 16 else REDACTED


@dataclass(frozen=True)
class Endpoint:
    """A JSON-RPC endpoint; `url` holds the secret key, `redacted` is safe to show or log."""

    base_url: str
    api_key: str | None = field(default=None, repr=False)
    url_form: UrlForm = UrlForm.KEY
    allow_insecure_http: bool = False

    def __post_init__(self) -> None:
        """Check the URL, the key and the http:// rule."""
        parts = urlsplit(self.base_url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise InvalidInput("the endpoint URL must start with https:// and name a host")
        if parts.username or parts.password or parts.query or parts.fragment:
            raise InvalidInput("the endpoint URL must not carry credentials, a query or a fragment")
        if (self.api_key is None) != (self.url_form is UrlForm.NO_KEY):
            raise InvalidInput("an API key goes with the KEY or V2_KEY URL form, and only there")
        if self.api_key is not None and _KEY_CHARS.fullmatch(self.api_key) is None:
            raise InvalidInput("the API key may hold only letters, digits and . _ ~ -")
        if self.is_insecure and not self.allow_insecure_http:
            raise InvalidInput(
                f"http://{parts.hostname} would send requests (and the key) in clear text; "
                "use https:// or allow insecure http explicitly"
            )

    @property
    def host(self) -> str:
        """Return the host name of the endpoint."""
        return urlsplit(self.base_url).hostname or ""

    @property
    def is_insecure(self) -> bool:
        """Tell whether requests go unencrypted to another machine."""
        return urlsplit(self.base_url).scheme == "http" and not is_loopback_host(self.host)

    def _with_key(self, key: str) -> str:
        """Return the base URL followed by the path segments of the URL form."""
        base = self.base_url.rstrip("/")
        if self.url_form is UrlForm.NO_KEY:
            return base
        prefix = "/v2/" if self.url_form is UrlForm.V2_KEY else "/"
        return base + prefix + key

    @property
    def url(self) -> str:
        """Return the real request URL. Secret: never show or log it."""
        return self._with_key(self.api_key or "")

    @property
    def redacted(self) -> str:
        """Return the URL with the key masked, for display and logs."""
        return self._with_key(mask_key(self.api_key or ""))

    def __str__(self) -> str:
        """Show the redacted URL."""
        return self.redacted

    @classmethod
    def parse(
        cls,
        url: str,
        api_key: str | None = None,
        *,
        allow_insecure_http: bool = False,
        split_key: bool = True,
    ) -> Endpoint:
        """Build an endpoint from a pasted URL, splitting a key found as its last path segment."""
        try:
            parts = urlsplit(url.strip())
        except ValueError:
            raise InvalidInput("the endpoint URL cannot be parsed") from None
        segments = [s for s in parts.path.split("/") if s]
        key = api_key or None
        if key is not None and segments and segments[-1] == key:
            segments.pop()
        elif key is None and split_key and segments:
            key = segments.pop()
        form = UrlForm.NO_KEY if key is None else UrlForm.KEY
        if key is not None and segments and segments[-1] == "v2":
            segments.pop()
            form = UrlForm.V2_KEY
        base = parts._replace(path="".join("/" + s for s in segments)).geturl()
        return cls(base, key, form, allow_insecure_http)
