"""Async JSON-RPC client for the node access service. No Qt."""
