"""A network's settings as the user types them, and the rules that check them (no Qt, no IO)."""

from __future__ import annotations

import dataclasses
import enum
from collections.abc import Collection
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from explorer.rpc.endpoint import Endpoint, UrlForm
from explorer.rpc.errors import InvalidInput

_CHAIN_ID_MESSAGE = "the chain id must be a positive whole number, e.g. 31"
UNSPLIT_KEY = (
    "the end of the URL's path is taken as the API key, and a key may hold only letters, "
    "digits and . _ ~ -"
)


class FormField(enum.Enum):
    """An editable value of a network form; the value is the NetworkForm attribute it sets."""

    NAME = "name"
    URL = "url"
    API_KEY = "api_key"
    URL_FORM = "v2"
    PUBLIC_NODE = "use_public_node"
    CHAIN_ID = "chain_id"
    INSECURE_HTTP = "allow_insecure_http"


FormErrors = dict[FormField, str]


@dataclass(frozen=True)
class NetworkForm:
    """One network's settings as the user typed them; the text stays verbatim until saved.

    network_id is '' for a custom endpoint not saved yet. name, url, chain_id and
    allow_insecure_http are edited for custom endpoints only; use_public_node for hosted ones.
    """

    network_id: str = ""
    name: str = ""
    url: str = ""
    api_key: str = ""
    v2: bool = False
    use_public_node: bool = False
    chain_id: str = ""
    allow_insecure_http: bool = False

    @property
    def is_custom(self) -> bool:
        """Tell whether the form describes a custom endpoint."""
        return not self.network_id or self.network_id.startswith("custom:")

    def with_value(self, field: FormField, value: str | bool) -> NetworkForm:
        """Return the form with one field set (text fields take str, switches bool)."""
        current = getattr(self, field.value)
        if type(value) is not type(current):
            raise TypeError(f"{field.name} takes {type(current).__name__}")
        changes: dict[str, Any] = {field.value: value}
        return dataclasses.replace(self, **changes)


def parse_chain_id(text: str) -> int:
    """Parse a chain id typed as decimal or 0x-hex; InvalidInput unless it is positive."""
    text = text.strip()
    try:
        value = int(text, 16) if text[:2].lower() == "0x" else int(text, 10)
    except ValueError:
        raise InvalidInput(_CHAIN_ID_MESSAGE) from None
    if value <= 0 or not text.isascii():
        raise InvalidInput(_CHAIN_ID_MESSAGE)
    return value


def split_pasted_key(form: NetworkForm) -> NetworkForm:
    """Move the URL's last path segment (after /v2 or not) into the key, whatever its length.

    The service puts the key there, so whatever follows the base is taken as one: the saved
    URL of a custom network never holds a key. A key typed in its own field leaves the URL's
    path as typed.
    """
    try:
        endpoint = Endpoint.parse(form.url, allow_insecure_http=True)
    except InvalidInput:
        return form
    key = endpoint.api_key or ""
    if not key or form.api_key.strip() not in ("", key):
        return form
    v2 = endpoint.url_form is UrlForm.V2_KEY
    return dataclasses.replace(form, url=endpoint.base_url, api_key=key, v2=v2)


def custom_endpoint(form: NetworkForm) -> Endpoint:
    """Return the endpoint of a custom form; InvalidInput names the URL or key problem."""
    form = split_pasted_key(form)
    insecure = form.allow_insecure_http
    base = Endpoint.parse(form.url, allow_insecure_http=insecure, split_key=False)
    key = form.api_key.strip()
    if not key:
        return base
    url_form = UrlForm.V2_KEY if form.v2 else UrlForm.KEY
    return Endpoint(base.base_url, key, url_form, insecure)


def key_error(key: str) -> FormErrors:
    """Return the API key's error when its characters cannot go into a URL path."""
    try:
        Endpoint("https://localhost", key)
    except InvalidInput as error:
        return {FormField.API_KEY: error.message}
    return {}


def custom_form_errors(form: NetworkForm, taken_names: Collection[str]) -> FormErrors:
    """Return a message per bad field of a custom form; taken_names are casefolded."""
    errors: FormErrors = {}
    name = form.name.strip()
    if not name:
        errors[FormField.NAME] = "give the endpoint a name"
    elif "/" in name or "\\" in name:
        errors[FormField.NAME] = "a name cannot hold / or \\"
    elif name.casefold() in taken_names:
        errors[FormField.NAME] = f"another network is already called {name}"
    try:
        parse_chain_id(form.chain_id)
    except InvalidInput as error:
        errors[FormField.CHAIN_ID] = error.message
    split = split_pasted_key(form)
    try:
        base = Endpoint.parse(
            split.url, allow_insecure_http=form.allow_insecure_http, split_key=False
        )
    except InvalidInput as error:
        errors[FormField.URL] = error.message
    else:
        if not split.api_key.strip() and urlsplit(base.base_url).path.strip("/"):
            errors[FormField.URL] = UNSPLIT_KEY  # the end of the path would be kept as typed
    key = split.api_key.strip()
    return errors | (key_error(key) if key else {})
