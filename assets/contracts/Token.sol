// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// @title Sandbox token
/// @notice A plain ERC-20 (18 decimals) whose deployer may mint, so that the
/// sandbox can seed vesters and demo wallets. Nothing else is special.
contract Token is ERC20 {
    /// @notice The deployer, the only account that may mint.
    address public immutable minter;

    /// @notice Someone other than the minter tried to mint.
    error NotMinter(address caller);

    constructor(string memory name_, string memory symbol_) ERC20(name_, symbol_) {
        minter = msg.sender;
    }

    /// @notice Creates `amount` base units for `to`.
    function mint(address to, uint256 amount) external {
        if (msg.sender != minter) revert NotMinter(msg.sender);
        _mint(to, amount);
    }
}
