"""Devnet conformance tests."""
