"""Unit tests: small pieces of the package checked on their own."""
