"""The safety guards, each with a mutation that removes it and the test that must then fail."""
