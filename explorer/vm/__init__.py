"""Rootstock's VM: py-evm under rskj's rules by network and height (the devnet's and replays')."""
