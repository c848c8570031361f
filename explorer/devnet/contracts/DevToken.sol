// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title DevToken: a minimal ERC-20 for the explorer's devnet, with a batch airdrop.
contract DevToken {
    string public name;
    string public symbol;
    uint8 public constant decimals = 18;
    uint256 public totalSupply;
    mapping(address => uint256) public balanceOf;
    mapping(address => mapping(address => uint256)) public allowance;

    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);

    constructor(string memory name_, string memory symbol_, uint256 supply) {
        name = name_;
        symbol = symbol_;
        totalSupply = supply;
        balanceOf[msg.sender] = supply;
        emit Transfer(address(0), msg.sender, supply);
    }

    function transfer(address to, uint256 value) external returns (bool) {
        _move(msg.sender, to, value);
        return true;
    }

    function approve(address spender, uint256 value) external returns (bool) {
        allowance[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
        return true;
    }

    function transferFrom(address from, address to, uint256 value) external returns (bool) {
        uint256 allowed = allowance[from][msg.sender];
        require(allowed >= value, "DevToken: allowance too low");
        if (allowed != type(uint256).max) {
            allowance[from][msg.sender] = allowed - value;
        }
        _move(from, to, value);
        return true;
    }

    /// Send `value` to each recipient, one Transfer event each.
    function airdrop(address[] calldata recipients, uint256 value) external {
        for (uint256 i = 0; i < recipients.length; i++) {
            _move(msg.sender, recipients[i], value);
        }
    }

    /// Send value to one recipient in `parts` equal transfers, one Transfer event each.
    function transferInParts(address to, uint256 value, uint256 parts) external {
        require(balanceOf[msg.sender] >= value * parts, "DevToken: balance too low");
        balanceOf[msg.sender] -= value * parts;
        balanceOf[to] += value * parts;
        for (uint256 i = 0; i < parts; i++) {
            emit Transfer(msg.sender, to, value);
        }
    }

    function _move(address from, address to, uint256 value) private {
        require(balanceOf[from] >= value, "DevToken: balance too low");
        balanceOf[from] -= value;
        balanceOf[to] += value;
        emit Transfer(from, to, value);
    }
}
