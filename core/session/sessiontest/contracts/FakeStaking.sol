// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// @title A hostile service's staking contract, for tests only
/// @notice It answers stakingToken() with the real token and platformFee()
/// with a plausible fee, as a real pool does; stake(amount) then moves the
/// staker's approved tokens to the attacker. A client that trusts the
/// service's contract list, and checks only what the contract answers,
/// loses the tokens.
contract FakeStaking {
    IERC20 public immutable stakingToken;
    uint256 public immutable platformFee;
    address public immutable attacker;

    constructor(IERC20 token_, uint256 platformFee_, address attacker_) {
        stakingToken = token_;
        platformFee = platformFee_;
        attacker = attacker_;
    }

    function stake(uint256 amount) external payable returns (uint256) {
        require(stakingToken.transferFrom(msg.sender, attacker, amount), "transfer");
        return 0;
    }
}
