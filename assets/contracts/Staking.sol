// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";

/// @title Staking pool
/// @notice One contract is one pool: stake(uint256 amount) carries no pool id
/// (docs/deployment.md D11), so pools that share a contract share its stake list.
/// A stake pulls the staked tokens with transferFrom (the staker approves
/// first) and pays the platform fee in native coin as msg.value. Stakes are
/// kept in order so that they can be listed; there is no unstaking.
contract Staking {
    using SafeERC20 for IERC20;

    struct Stake {
        address staker;
        uint64 timestamp; // block.timestamp of the stake
        uint256 amount;
    }

    IERC20 public immutable stakingToken;
    address public immutable admin;
    /// @notice The exact msg.value stake requires, in wei.
    uint256 public immutable platformFee;

    uint256 public totalStaked;
    mapping(address staker => uint256 amount) public stakedBy;
    Stake[] private _stakes;

    event Staked(address indexed staker, uint256 indexed index, uint256 amount);
    event FeesSwept(address indexed to, uint256 amount);

    error NotAdmin(address caller);
    error ZeroAmount();
    error WrongFee(uint256 expected, uint256 sent);
    error NoSuchStake(uint256 index, uint256 count);
    error FeeTransferFailed();

    constructor(IERC20 token_, uint256 platformFee_) {
        stakingToken = token_;
        admin = msg.sender;
        platformFee = platformFee_;
    }

    /// @notice Stakes `amount` tokens of the caller and returns the stake's
    /// index. Refusals, in the order checked: ZeroAmount, WrongFee, then the
    /// token's own (ERC20InsufficientAllowance, ERC20InsufficientBalance).
    function stake(uint256 amount) external payable returns (uint256 index) {
        if (amount == 0) revert ZeroAmount();
        if (msg.value != platformFee) revert WrongFee(platformFee, msg.value);
        index = _stakes.length;
        _stakes.push(Stake({staker: msg.sender, timestamp: uint64(block.timestamp), amount: amount}));
        totalStaked += amount;
        stakedBy[msg.sender] += amount;
        emit Staked(msg.sender, index, amount);
        stakingToken.safeTransferFrom(msg.sender, address(this), amount);
    }

    function stakeCount() external view returns (uint256) {
        return _stakes.length;
    }

    function stakeAt(uint256 index) external view returns (address staker, uint256 amount, uint64 timestamp) {
        if (index >= _stakes.length) revert NoSuchStake(index, _stakes.length);
        Stake storage s = _stakes[index];
        return (s.staker, s.amount, s.timestamp);
    }

    /// @notice Sends the collected platform fees to `to`.
    function sweepFees(address payable to) external {
        if (msg.sender != admin) revert NotAdmin(msg.sender);
        uint256 amount = address(this).balance;
        emit FeesSwept(to, amount);
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert FeeTransferFailed();
    }
}
