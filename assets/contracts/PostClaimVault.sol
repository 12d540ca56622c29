// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {IPostClaimHandler} from "./Vester.sol";

/// @title Post-claim vault
/// @notice The sandbox's post-claim handler: a claim through it (the
/// vester's six-argument withdraw) leaves the tokens here, credited to the
/// allocation's withdrawal address, not in any wallet; that address takes
/// them out later with release(). It stands for production's integration
/// contracts (a staking or locking contract a vester forwards claims to):
/// what matters to a client is that such a claim does not pay the wallet.
contract PostClaimVault is IPostClaimHandler {
    using SafeERC20 for IERC20;

    /// @notice The only vester whose claims this vault takes.
    address public immutable vester;
    /// @notice The token the vester pays out.
    IERC20 public immutable token;
    /// @notice Tokens held for each withdrawal address.
    mapping(address owner => uint256 amount) public held;

    /// @notice A claim of allocationId paid `amount` into the vault for
    /// `withdrawalAddress`; extraData is what the claim passed along.
    event ClaimHeld(string allocationId, address indexed withdrawalAddress, uint256 amount, bytes extraData);
    /// @notice `owner` took its tokens out.
    event Released(address indexed owner, uint256 amount);

    /// @notice Someone other than the vester called handlePostClaim.
    error NotVester(address caller);
    /// @notice The claim paid a token other than the vester's.
    error WrongToken(address claimToken);
    /// @notice release() found nothing held for the caller.
    error NothingHeld();

    constructor(address vester_, IERC20 token_) {
        vester = vester_;
        token = token_;
    }

    /// @notice Called by the vester once it has sent `amount` here: credits
    /// it to the withdrawal address.
    function handlePostClaim(
        IERC20 claimToken,
        uint256 amount,
        address,
        address withdrawalAddress,
        string memory allocationId,
        bytes memory extraData
    ) external {
        if (msg.sender != vester) revert NotVester(msg.sender);
        if (address(claimToken) != address(token)) revert WrongToken(address(claimToken));
        held[withdrawalAddress] += amount;
        emit ClaimHeld(allocationId, withdrawalAddress, amount, extraData);
    }

    /// @notice Sends the caller everything held for it.
    function release() external {
        uint256 amount = held[msg.sender];
        if (amount == 0) revert NothingHeld();
        held[msg.sender] = 0;
        emit Released(msg.sender, amount);
        token.safeTransfer(msg.sender, amount);
    }
}
