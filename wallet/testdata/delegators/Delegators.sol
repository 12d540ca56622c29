// SPDX-License-Identifier: MIT
pragma solidity 0.8.37;

import {ERC1967Proxy} from "@openzeppelin/contracts/proxy/ERC1967/ERC1967Proxy.sol";
import {Address} from "@openzeppelin/contracts/utils/Address.sol";

/// OpenZeppelin's EIP-1967 proxy, deployed as it is: the logic it runs is
/// the implementation in its slot, which an upgrade replaces. It calls the
/// implementation's initialize() on deploy, as OpenZeppelin requires.
contract OZProxy is ERC1967Proxy {
    constructor(address implementation) ERC1967Proxy(implementation, abi.encodeWithSignature("initialize()")) {}
}

/// Delegates to an address it keeps in an ordinary storage slot, where no
/// proxy layout allot reads keeps it.
contract StoredDelegator {
    address public target;

    function setTarget(address t) external {
        target = t;
    }

    function run(bytes calldata data) external returns (bytes memory) {
        return Address.functionDelegateCall(target, data);
    }
}

/// Delegates to whatever address its caller names.
contract CalldataDelegator {
    function run(address target, bytes calldata data) external returns (bytes memory) {
        return Address.functionDelegateCall(target, data);
    }
}
