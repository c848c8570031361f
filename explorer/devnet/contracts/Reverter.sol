// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Reverter: reverts with a reason, for failed calls and failed transactions.
contract Reverter {
    uint256 public counter;

    event Poked(address indexed by, uint256 value);

    /// Always reverts with a reason.
    function fail() external pure {
        require(false, "Reverter: always fails");
    }

    /// Returns twice x; reverts with a reason when x is 10 or more.
    function double(uint256 x) external pure returns (uint256) {
        require(x < 10, "Reverter: value too large");
        return x * 2;
    }

    /// Adds x to the counter; reverts with a reason when x is 10 or more.
    function poke(uint256 x) external {
        require(x < 10, "Reverter: value too large");
        counter += x;
        emit Poked(msg.sender, x);
    }
}
