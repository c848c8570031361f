// SPDX-License-Identifier: MIT
pragma solidity ^0.8.20;

// The devnet's stories of what happens inside a transaction (issue 28, history_inside.py):
// calls nested deep, a proxy, a factory, a revert caught, the Bridge asked from a contract.

interface IPayer {
    function pay(address payable to, uint256 amount) external;
}

interface IToken {
    function transfer(address to, uint256 amount) external returns (bool);
}

/// The Bridge's methods a contract may call. Not `view`: rskj's Bridge answers CALL only
/// (BridgeMethods.CallTypeHelper.RESTRICTED_TO_CALL), never STATICCALL.
interface IBridge {
    function getFederationAddress() external returns (string memory);

    function getMinimumLockTxValue() external returns (int256);
}

/// Pays RBTC out of its pool and says so.
contract Treasury {
    event Paid(address indexed to, uint256 amount);

    receive() external payable {}

    function pay(address payable to, uint256 amount) external {
        (bool sent, ) = to.call{value: amount}("");
        require(sent, "Treasury: transfer failed");
        emit Paid(to, amount);
    }
}

/// Hands a payment down through `depth` calls to itself; at the bottom the treasury pays and a
/// token moves, so value, events and tokens all happen deep inside one transaction.
contract Relay {
    event Relayed(uint256 depth);

    function relay(IPayer treasury, IToken token, address payable to, uint256 amount, uint256 depth)
        external
    {
        if (depth > 0) {
            Relay(this).relay(treasury, token, to, amount, depth - 1);
        } else {
            treasury.pay(to, amount);
            require(token.transfer(to, amount), "Relay: token transfer failed");
        }
        emit Relayed(depth);
    }

    /// Has the treasury pay each receiver in turn: a transaction of many frames.
    function spread(IPayer treasury, address payable[] calldata receivers, uint256 amount) external {
        for (uint256 i = 0; i < receivers.length; i++) {
            treasury.pay(receivers[i], amount);
        }
    }
}

/// What the counter proxy runs, in the proxy's own storage and balance.
contract CounterLogic {
    uint256 public count;

    event Counted(uint256 count, address by, uint256 paid);

    function increment() external payable {
        count += 1;
        emit Counted(count, msg.sender, msg.value);
    }
}

/// Forwards every call to its implementation with DELEGATECALL (the implementation in
/// EIP-1967's slot, so it never meets the logic's own storage).
contract CounterProxy {
    bytes32 private constant SLOT = 0x360894a13ba1a3210667c828492db98dca3e2076cc3735a920a3ca505d382bbc;

    constructor(address implementation) {
        assembly {
            sstore(SLOT, implementation)
        }
    }

    fallback() external payable {
        assembly {
            let implementation := sload(SLOT)
            calldatacopy(0, 0, calldatasize())
            let ok := delegatecall(gas(), implementation, 0, calldatasize(), 0, 0)
            returndatacopy(0, 0, returndatasize())
            switch ok
            case 0 {
                revert(0, returndatasize())
            }
            default {
                return(0, returndatasize())
            }
        }
    }
}

/// A child born at an address its salt fixes, funded by its creation.
contract SaltChild {
    address public owner;

    event Born(address owner, uint256 endowment);
    event Pinged(uint256 balance);

    constructor(address owner_) payable {
        owner = owner_;
        emit Born(owner_, msg.value);
    }

    function ping() external {
        emit Pinged(address(this).balance);
    }
}

/// Deploys children with CREATE2, passing on the value sent, then calls the new child.
contract SaltFactory {
    event Deployed(address child, bytes32 salt);

    function deploy(bytes32 salt) external payable returns (address child) {
        child = address(new SaltChild{salt: salt, value: msg.value}(msg.sender));
        emit Deployed(child, salt);
        SaltChild(child).ping();
    }
}

/// Tries a payment that cannot succeed, catches its revert, then makes one that does.
contract Guard {
    event Failed(string reason);
    event Done(uint256 amount);

    function attempt(IPayer treasury, address payable to, uint256 tooMuch, uint256 amount) external {
        try treasury.pay(to, tooMuch) {} catch Error(string memory reason) {
            emit Failed(reason);
        }
        treasury.pay(to, amount);
        emit Done(amount);
    }
}

/// Asks the Bridge from a contract: reads it answers, and a peg-out a contract may not make
/// (rskj rejects it, reason 2, and keeps the value).
contract BridgeAsker {
    IBridge private constant BRIDGE = IBridge(0x0000000000000000000000000000000001000006);

    event Federation(string btcAddress, int256 minimumLock);

    function ask() external {
        emit Federation(BRIDGE.getFederationAddress(), BRIDGE.getMinimumLockTxValue());
    }

    function pegOut() external payable {
        (bool ok, ) = address(BRIDGE).call{value: msg.value}("");
        require(ok, "BridgeAsker: the Bridge refused the call");
    }
}
