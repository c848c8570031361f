"""One log line per attempt that could not reach the node: where, what, why; never the key."""

from __future__ import annotations

import logging

from explorer.rpc.endpoint import Endpoint
from explorer.rpc.errors import ErrorKind, RpcError

LOG = logging.getLogger("explorer.rpc.unreached")
#: For the window's log file (the root's handlers), never Python's last-resort handler: on the
#: command line the error says it once, on stderr, and its lines are the command's output.
LOG.addHandler(logging.NullHandler())


def log_unreached(endpoint: Endpoint, method: str, number: int, of: int, error: RpcError) -> None:
    """Log a failed connection attempt: the endpoint by its base URL (the key is not in it)."""
    if error.kind is not ErrorKind.TRANSPORT:
        return  # the node answered: not a connection that failed
    LOG.warning(
        "could not reach %s (%s, attempt %d of %d): %s",
        endpoint.base_url,
        method,
        number,
        of,
        error.message,
    )
