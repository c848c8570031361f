"""Client tests against scripted servers over real sockets."""
