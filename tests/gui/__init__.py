"""GUI tests: real widgets against the devnet over real HTTP."""
