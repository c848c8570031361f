// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title Payout: a pool of RBTC paid out inside calls that others send.
/// It emits no event: what it pays shows only in the receivers' balances, as value moved
/// by contract execution does on Rootstock.
contract Payout {
    /// Takes RBTC into the pool.
    function deposit() external payable {}

    receive() external payable {}

    /// Pays each receiver its amount out of the pool (anyone may call it: a devnet payroll).
    function pay(address payable[] calldata receivers, uint256[] calldata amounts) external {
        require(receivers.length == amounts.length, "Payout: lengths differ");
        for (uint256 i = 0; i < receivers.length; i++) {
            (bool sent, ) = receivers[i].call{value: amounts[i]}("");
            require(sent, "Payout: transfer failed");
        }
    }

    /// Forwards the value sent, in equal parts, to the receivers; what does not divide stays.
    function split(address payable[] calldata receivers) external payable {
        require(receivers.length > 0, "Payout: nobody to pay");
        uint256 share = msg.value / receivers.length;
        for (uint256 i = 0; i < receivers.length; i++) {
            (bool sent, ) = receivers[i].call{value: share}("");
            require(sent, "Payout: transfer failed");
        }
    }
}
