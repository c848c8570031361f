"""Async JSON-RPC client for the node access service (no Qt); start at client.RpcClient."""
