// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title RnsResolver (minimal): forward addr(node) and reverse name(node), set by one admin.
contract RnsResolver {
    address public admin;
    mapping(bytes32 => address) public addr;
    mapping(bytes32 => string) public name;

    event AddrChanged(bytes32 indexed node, address a);
    event NameChanged(bytes32 indexed node, string name);

    function setAddr(bytes32 node, address a) external {
        require(msg.sender == admin, "RnsResolver: only the admin");
        addr[node] = a;
        emit AddrChanged(node, a);
    }

    function setName(bytes32 node, string calldata newName) external {
        require(msg.sender == admin, "RnsResolver: only the admin");
        name[node] = newName;
        emit NameChanged(node, newName);
    }

    function supportsInterface(bytes4 id) external pure returns (bool) {
        return id == 0x01ffc9a7 || id == 0x3b3b57de || id == 0x691f3431;
    }
}
