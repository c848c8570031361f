"""The client's error taxonomy: one kind and a one-line human message per failure."""

from __future__ import annotations

import enum
from typing import Any, ClassVar

from explorer.chain.hexutil import HexFormatError, parse_data
from explorer.chain.revert import decode_revert_reason
from explorer.chain.secrets import REDACTED, holds, scrub
from explorer.rpc.nodefailures import NodeFailure, classify


class ErrorKind(enum.Enum):
    """What went wrong, in the terms the user interface shows."""

    TRANSPORT = "transport"
    AUTH = "auth"
    RATE_LIMITED = "rate limited"
    SERVER = "server"
    NODE = "node"
    MALFORMED = "malformed response"
    INVALID_INPUT = "invalid input"
    CHAIN_MISMATCH = "chain mismatch"

    @property
    def said(self) -> str:
        """Return the kind in the window's words (the command line prints the value)."""
        return KIND_SAID[self]

    def explain(self, message: str) -> str:
        """Return `what went wrong: message`, or the message alone when it says so already."""
        said = self.said
        return message if said.removeprefix("the node ") in message else f"{said}: {message}"


KIND_SAID = {
    ErrorKind.TRANSPORT: "the node cannot be reached",
    ErrorKind.AUTH: "the node refused the API key",
    ErrorKind.RATE_LIMITED: "the node is limiting requests",
    ErrorKind.SERVER: "the node's web server failed",
    ErrorKind.NODE: "the node answered with an error",
    ErrorKind.MALFORMED: "the node's answer could not be read",
    ErrorKind.INVALID_INPUT: "invalid input",
    ErrorKind.CHAIN_MISMATCH: "chain mismatch",
}


class RpcError(Exception):
    """Base of every client error; `message` is one line and never holds the API key."""

    kind: ClassVar[ErrorKind]
    retryable: ClassVar[bool] = False

    def __init__(self, message: str) -> None:
        """Keep the first line of message as the human-readable text."""
        self.message = " ".join(message.split())
        super().__init__(self.message)

    def redact(self, secret: str | None, replacement: str = REDACTED) -> None:
        """Remove secret from the message, in any letter case or %-encoding."""
        if secret and holds(self.message, secret):
            self.message = scrub(self.message, [secret], replacement=replacement)
            self.args = (self.message,)


class TransportError(RpcError):
    """The request failed on the way: connect, timeout, reset, TLS."""

    kind = ErrorKind.TRANSPORT
    retryable = True

    def __init__(self, message: str, *, maybe_sent: bool = True) -> None:
        """Record whether the request may have reached the server."""
        super().__init__(message)
        self.maybe_sent = maybe_sent


class AuthError(RpcError):
    """The service refused the API key (HTTP 401 or 403)."""

    kind = ErrorKind.AUTH

    def __init__(self, message: str, *, status: int) -> None:
        """Keep the HTTP status."""
        super().__init__(message)
        self.status = status


class RateLimited(RpcError):
    """The service asked us to slow down (HTTP 429); retry_after in seconds when given."""

    kind = ErrorKind.RATE_LIMITED
    retryable = True

    def __init__(self, message: str, *, retry_after: float | None = None) -> None:
        """Keep the server's Retry-After in seconds, if any."""
        super().__init__(message)
        self.retry_after = retry_after


class ServerError(RpcError):
    """The HTTP server failed or answered something other than JSON-RPC (5xx, HTML, 3xx)."""

    kind = ErrorKind.SERVER

    def __init__(self, message: str, *, status: int | None = None) -> None:
        """Keep the HTTP status; 5xx answers are worth retrying."""
        super().__init__(message)
        self.status = status

    @property
    def is_transient(self) -> bool:
        """Tell whether a later retry may succeed (HTTP 5xx)."""
        return self.status is not None and self.status >= 500


class NodeError(RpcError):
    """The node answered with a JSON-RPC error object.

    `failure` names what the node refused, whichever node's words it used (rskj's, the hosted
    service's, an Ethereum node's); `message` says it in the same human words for each, with
    the node's own code and text after them.
    """

    kind = ErrorKind.NODE

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        """Keep the node's code, message and data."""
        self.code = code
        self.node_message = message
        self.data = data
        self.failure: NodeFailure | None = classify(code, message)
        own = f"node error {code}: {message}"
        human = self.failure.human if self.failure is not None else None
        if self.failure is NodeFailure.REVERTED and self.revert_reason:
            human = f"{human}: {self.revert_reason}"
        super().__init__(own if human is None else f"{human} ({own})")

    def redact(self, secret: str | None, replacement: str = REDACTED) -> None:
        """Remove secret from the message, the node's own message and its data, in any form."""
        super().redact(secret, replacement)
        if secret:
            self.node_message = scrub(self.node_message, [secret], replacement=replacement)
            if isinstance(self.data, str):
                self.data = scrub(self.data, [secret], replacement=replacement)

    @property
    def revert_reason(self) -> str | None:
        """Return the decoded revert reason when data holds revert bytes."""
        if not isinstance(self.data, str):
            return None
        try:
            return decode_revert_reason(parse_data(self.data))
        except HexFormatError:
            return None


class MalformedResponse(RpcError):
    """The answer is not a valid JSON-RPC response (not JSON, wrong id, wrong types, too big)."""

    kind = ErrorKind.MALFORMED


class AnswerTooLarge(MalformedResponse):
    """The answer is larger than the client accepts (a smaller query may fit)."""


class InvalidInput(RpcError):
    """A parameter or URL is invalid; caught before anything was sent."""

    kind = ErrorKind.INVALID_INPUT


class ChainMismatch(RpcError):
    """The node serves another chain than the network the user chose."""

    kind = ErrorKind.CHAIN_MISMATCH

    def __init__(self, message: str, *, expected: int, actual: int | None) -> None:
        """Keep both chain ids."""
        super().__init__(message)
        self.expected = expected
        self.actual = actual
