"""The local node implementing the node access service. No Qt."""
