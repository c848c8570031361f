"""Real clients (web3.py, ethers 6) against the devnet."""
