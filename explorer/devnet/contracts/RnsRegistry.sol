// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

/// @title RnsRegistry (minimal): node -> resolver, set by one admin.
contract RnsRegistry {
    address public admin;
    mapping(bytes32 => address) public resolver;

    event NewResolver(bytes32 indexed node, address resolver);

    function setResolver(bytes32 node, address resolverAddress) external {
        require(msg.sender == admin, "RnsRegistry: only the admin");
        resolver[node] = resolverAddress;
        emit NewResolver(node, resolverAddress);
    }
}
