"""Devnet node tests, in process."""
