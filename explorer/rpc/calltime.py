"""How long one call may take, retries included: the default and what Settings offers."""

from __future__ import annotations

DEFAULT_CALL_TIMEOUT = 30.0  # seconds; a silent node is given up on then, not after minutes
CALL_TIMEOUT_RANGE = (1, 600)  # whole seconds the Settings dialog offers
