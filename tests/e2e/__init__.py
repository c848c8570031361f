"""End-to-end tests: the package started as processes."""
