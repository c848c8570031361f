"""Async use cases over the RPC client. No widgets."""
