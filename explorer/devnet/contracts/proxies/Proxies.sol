// SPDX-License-Identifier: MIT
// The devnet's proxies (issue 32): an EIP-1967 proxy upgraded once, a beacon proxy, a UUPS
// (EIP-1822) proxy and an EIP-1167 clone factory, with the implementations behind them.
pragma solidity ^0.8.26;

/// @title A box holding one number (the EIP-1967 proxy's first implementation)
contract BoxV1 {
    uint256 private value;

    /// @notice Emitted when the number changes
    event ValueChanged(uint256 newValue);

    /// @notice Store a new number
    /// @param newValue the number to keep
    function store(uint256 newValue) external {
        value = newValue;
        emit ValueChanged(newValue);
    }

    /// @notice Return the number kept
    function retrieve() external view returns (uint256) {
        return value;
    }

    function version() external pure returns (string memory) {
        return "BoxV1";
    }
}

/// @title The box after its upgrade: it counts up and has a label; store() is gone
contract BoxV2 {
    uint256 private value;
    string private boxLabel;

    event ValueChanged(uint256 newValue);
    event LabelChanged(string label);

    function retrieve() external view returns (uint256) {
        return value;
    }

    /// @notice Add one to the number
    function increment() external {
        value += 1;
        emit ValueChanged(value);
    }

    function setLabel(string calldata newLabel) external {
        boxLabel = newLabel;
        emit LabelChanged(newLabel);
    }

    function label() external view returns (string memory) {
        return boxLabel;
    }

    function version() external pure returns (string memory) {
        return "BoxV2";
    }
}

/// @title Delegates every call to the code at an address kept in a fixed storage slot
abstract contract Delegating {
    function _target() internal view virtual returns (address);

    fallback() external payable {
        address target = _target();
        assembly {
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), target, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 { revert(0, returndatasize()) }
            default { return(0, returndatasize()) }
        }
    }

    receive() external payable {}
}

/// @title An EIP-1967 proxy whose admin upgrades it (admin calls never reach the implementation)
contract Eip1967Proxy is Delegating {
    bytes32 private constant IMPLEMENTATION_SLOT =
        bytes32(uint256(keccak256("eip1967.proxy.implementation")) - 1);
    bytes32 private constant ADMIN_SLOT = bytes32(uint256(keccak256("eip1967.proxy.admin")) - 1);

    event Upgraded(address indexed implementation);
    event AdminChanged(address previousAdmin, address newAdmin);

    constructor(address implementation, address admin) {
        _setImplementation(implementation);
        bytes32 slot = ADMIN_SLOT;
        assembly {
            sstore(slot, admin)
        }
        emit AdminChanged(address(0), admin);
    }

    /// @notice Point the proxy at new code (admin only)
    function upgradeTo(address implementation) external {
        require(msg.sender == _admin(), "admin only");
        _setImplementation(implementation);
    }

    function _admin() private view returns (address admin) {
        bytes32 slot = ADMIN_SLOT;
        assembly {
            admin := sload(slot)
        }
    }

    function _setImplementation(address implementation) private {
        require(implementation.code.length > 0, "not a contract");
        bytes32 slot = IMPLEMENTATION_SLOT;
        assembly {
            sstore(slot, implementation)
        }
        emit Upgraded(implementation);
    }

    function _target() internal view override returns (address target) {
        bytes32 slot = IMPLEMENTATION_SLOT;
        assembly {
            target := sload(slot)
        }
    }
}

/// @title A greeting kept by whatever proxy delegates to it (the beacon's implementation)
contract Greeter {
    string private greeting;

    event GreetingChanged(address indexed by, string greeting);

    function greet() external view returns (string memory) {
        return greeting;
    }

    function setGreeting(string calldata newGreeting) external {
        greeting = newGreeting;
        emit GreetingChanged(msg.sender, newGreeting);
    }
}

/// @title An upgradeable beacon: proxies ask it for their implementation
contract DevBeacon {
    address public implementation;
    address public owner;

    event Upgraded(address indexed implementation);

    constructor(address firstImplementation) {
        owner = msg.sender;
        implementation = firstImplementation;
        emit Upgraded(firstImplementation);
    }

    function upgradeTo(address newImplementation) external {
        require(msg.sender == owner, "owner only");
        implementation = newImplementation;
        emit Upgraded(newImplementation);
    }
}

interface IBeacon {
    function implementation() external view returns (address);
}

/// @title A beacon proxy: the EIP-1967 beacon slot names the beacon
contract DevBeaconProxy is Delegating {
    bytes32 private constant BEACON_SLOT = bytes32(uint256(keccak256("eip1967.proxy.beacon")) - 1);

    event BeaconUpgraded(address indexed beacon);

    constructor(address beacon) {
        bytes32 slot = BEACON_SLOT;
        assembly {
            sstore(slot, beacon)
        }
        emit BeaconUpgraded(beacon);
    }

    function _target() internal view override returns (address) {
        address beacon;
        bytes32 slot = BEACON_SLOT;
        assembly {
            beacon := sload(slot)
        }
        return IBeacon(beacon).implementation();
    }
}

/// @title An EIP-1822 (UUPS) proxy: the implementation sits in the PROXIABLE slot
contract UupsProxy is Delegating {
    constructor(address implementation, bytes memory setUp) {
        assembly {
            sstore(0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7, implementation)
        }
        (bool ok, ) = implementation.delegatecall(setUp);
        require(ok, "set-up failed");
    }

    function _target() internal view override returns (address target) {
        assembly {
            target := sload(0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7)
        }
    }
}

/// @title A counter behind a UUPS proxy: it upgrades itself
contract UupsCounter {
    bytes32 private constant PROXIABLE = keccak256("PROXIABLE");
    address public owner;
    uint256 public count;

    event CodeUpdated(address indexed implementation);

    function initialize(address newOwner) external {
        require(owner == address(0), "initialized");
        owner = newOwner;
    }

    function increment() external {
        count += 1;
    }

    /// @notice The EIP-1822 slot this code answers for
    function proxiableUUID() external pure returns (bytes32) {
        return PROXIABLE;
    }

    function updateCodeAddress(address newImplementation) external {
        require(msg.sender == owner, "owner only");
        require(UupsCounter(newImplementation).proxiableUUID() == PROXIABLE, "not proxiable");
        assembly {
            sstore(0xc5f16f0fcc639fa48a6947836d9850f504798523bf8c9a3a87d5876cf622bcf7, newImplementation)
        }
        emit CodeUpdated(newImplementation);
    }
}

/// @title A vault each clone keeps for its owner
contract Vault {
    address public owner;

    event Deposited(address indexed from, uint256 amount);
    event Withdrawn(address indexed to, uint256 amount);

    function initialize(address newOwner) external {
        require(owner == address(0), "initialized");
        owner = newOwner;
    }

    function deposit() external payable {
        emit Deposited(msg.sender, msg.value);
    }

    function withdraw(uint256 amount) external {
        require(msg.sender == owner, "owner only");
        payable(msg.sender).transfer(amount);
        emit Withdrawn(msg.sender, amount);
    }
}

/// @title Makes EIP-1167 minimal proxies (clones) of one vault
contract CloneFactory {
    address public immutable implementation;

    event CloneCreated(address indexed clone, address indexed owner);

    constructor(address vault) {
        implementation = vault;
    }

    /// @notice Make a clone of the vault for an owner
    function cloneFor(address vaultOwner) external returns (address clone) {
        bytes20 target = bytes20(implementation);
        assembly {
            let code := mload(0x40)
            mstore(code, 0x3d602d80600a3d3981f3363d3d373d3d3d363d73000000000000000000000000)
            mstore(add(code, 0x14), target)
            mstore(add(code, 0x28), 0x5af43d82803e903d91602b57fd5bf30000000000000000000000000000000000)
            clone := create(0, code, 0x37)
        }
        require(clone != address(0), "create failed");
        Vault(clone).initialize(vaultOwner);
        emit CloneCreated(clone, vaultOwner);
    }
}
