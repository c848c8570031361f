"""Shared test helpers: scripted servers, the devnet fixtures, Qt and fixture loaders."""
