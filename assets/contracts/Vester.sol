// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title Merkle vester
/// @notice Holds the tokens of one distribution. The admin commits
/// allocations as merkle roots; anyone may prove an allocation and withdraw
/// what its unlock schedule has vested at block.timestamp: the tokens
/// always go to the allocation's beneficiary. A withdraw pays the claim fee
/// in native coin, exactly.
///
/// It behaves as the production vester the service deploys (Magna's
/// MerkleVester, dist_v2.1.2; docs/deployment.md D16), so that what allot
/// computes and checks against this sandbox holds there too:
/// - the vested amount is rounded down per piece, in wei, and is the whole
///   total from the end of an interval schedule's last piece on;
/// - a piece with periods of length 0 divides by zero (Panic 0x12) from its
///   start until that end;
/// - merkleRoots is an array: its getter reverts past the end, and a
///   withdraw naming a root past it reverts with Panic 0x32;
/// - withdraw(0, ...) withdraws everything vested and not yet withdrawn.
///
/// Leaf format (docs/deployment.md D8): leaf = keccak256(decodableArgs), hashed
/// once, with decodableArgs = abi.encode(string allocationType, Allocation,
/// Schedule), where Schedule is a CalendarSchedule for "calendar" and an
/// IntervalSchedule for "interval". Inner nodes hash sorted pairs
/// (OpenZeppelin MerkleProof). Percents are millionths.
///
/// The vesting math is mirrored to the wei by wallet/vesting in Go; change
/// both together. The cancel, revoke and transfer flags of an allocation are
/// carried in the leaf but not acted on here.
contract Vester {
    using SafeERC20 for IERC20;

    /// @notice 100% in the unit of schedule percents.
    uint256 public constant PERCENT_SCALE = 1_000_000;

    struct Allocation {
        string id;
        address originalBeneficiary;
        uint256 totalAllocation;
        bool cancelable;
        bool revokable;
        bool transferableByAdmin;
        bool transferableByBeneficiary;
    }

    struct CalendarSchedule {
        string unlockScheduleId;
        uint32[] unlockTimestamps;
        uint256[] unlockPercents;
    }

    struct Piece {
        uint32 startDate;
        uint32 periodLength;
        uint32 numberOfPeriods;
        uint32 percent;
    }

    struct IntervalSchedule {
        string unlockScheduleId;
        Piece[] pieces;
    }

    bytes32 private constant CALENDAR = keccak256("calendar");
    bytes32 private constant INTERVAL = keccak256("interval");

    IERC20 public immutable token;
    address public immutable admin;
    /// @notice The msg.value withdraw requires, in wei (see getClaimFee).
    uint256 public immutable claimFee;
    /// @notice When true, an allocation pays the claim fee on its first
    /// withdraw only.
    bool public immutable feeOnce;

    /// @notice The committed roots, numbered from 0 in the order added.
    bytes32[] public merkleRoots;
    /// @notice Paid out so far per allocation id, across all roots, so that
    /// an allocation repeated in a later root cannot be withdrawn twice.
    mapping(string allocationId => uint256 amount) public withdrawn;
    /// @notice Whether an allocation has paid its fee (used with feeOnce).
    mapping(string allocationId => bool paid) public feePaid;

    event RootAdded(uint256 indexed index, bytes32 root);
    event Funded(address indexed from, uint256 amount);
    event Withdrawn(address indexed beneficiary, uint32 indexed rootIndex, string allocationId, uint256 amount);
    event FeesSwept(address indexed to, uint256 amount);

    error NotAdmin(address caller);
    error ZeroAmount();
    error WrongFee(uint256 expected, uint256 sent);
    error InvalidProof();
    error UnknownAllocationType(string allocationType);
    error ScheduleLengthMismatch(uint256 timestamps, uint256 percents);
    error AmountExceedsUnlocked(uint256 requested, uint256 available);
    error FeeTransferFailed();

    modifier onlyAdmin() {
        if (msg.sender != admin) revert NotAdmin(msg.sender);
        _;
    }

    constructor(IERC20 token_, uint256 claimFee_, bool feeOnce_) {
        token = token_;
        admin = msg.sender;
        claimFee = claimFee_;
        feeOnce = feeOnce_;
    }

    /// @notice Commits a merkle root of allocations and returns its index.
    function addRoot(bytes32 root) external onlyAdmin returns (uint256 index) {
        index = merkleRoots.length;
        merkleRoots.push(root);
        emit RootAdded(index, root);
    }

    /// @notice How many roots were added.
    function rootCount() external view returns (uint256) {
        return merkleRoots.length;
    }

    /// @notice The exact msg.value the next withdraw of an allocation must
    /// carry: claimFee, or 0 once it has paid when the vester was made with
    /// feeOnce.
    function getClaimFee(string memory allocationId) public view returns (uint256) {
        return feeOnce && feePaid[allocationId] ? 0 : claimFee;
    }

    /// @notice Pulls `amount` tokens from the caller (who must have approved
    /// them) into the vester.
    function fund(uint256 amount) external {
        if (amount == 0) revert ZeroAmount();
        emit Funded(msg.sender, amount);
        token.safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @notice Pays `withdrawalAmount` of the proven allocation to its
    /// beneficiary, whoever sends it; 0 means everything vested and not yet
    /// withdrawn. Refusals, in the order checked: Panic 0x32 (no such root),
    /// InvalidProof, UnknownAllocationType or ScheduleLengthMismatch, a Panic
    /// of the vesting math, WrongFee, AmountExceedsUnlocked.
    function withdraw(uint256 withdrawalAmount, uint32 rootIndex, bytes calldata decodableArgs, bytes32[] calldata proof)
        external
        payable
    {
        if (!MerkleProof.verifyCalldata(proof, merkleRoots[rootIndex], keccak256(decodableArgs))) {
            revert InvalidProof();
        }
        (Allocation memory allocation, uint256 vestedAmount) = _vested(decodableArgs, block.timestamp);
        uint256 fee = getClaimFee(allocation.id);
        if (msg.value != fee) revert WrongFee(fee, msg.value);

        uint256 already = withdrawn[allocation.id];
        // A later root may carry the same allocation with a smaller total.
        uint256 available = vestedAmount > already ? vestedAmount - already : 0;
        if (withdrawalAmount == 0) withdrawalAmount = available;
        if (withdrawalAmount > available) revert AmountExceedsUnlocked(withdrawalAmount, available);

        withdrawn[allocation.id] = already + withdrawalAmount;
        if (feeOnce) feePaid[allocation.id] = true;
        address beneficiary = allocation.originalBeneficiary;
        emit Withdrawn(beneficiary, rootIndex, allocation.id, withdrawalAmount);
        token.safeTransfer(beneficiary, withdrawalAmount);
    }

    /// @notice The amount an allocation's schedule has vested at
    /// `timestamp`, before subtracting what was withdrawn. No proof needed:
    /// it only evaluates the leaf's content, and reverts where withdraw's
    /// vesting math does.
    function unlocked(bytes calldata decodableArgs, uint256 timestamp) external pure returns (uint256 amount) {
        (, amount) = _vested(decodableArgs, timestamp);
    }

    /// @notice Sends the collected claim fees to `to`.
    function sweepFees(address payable to) external onlyAdmin {
        uint256 amount = address(this).balance;
        emit FeesSwept(to, amount);
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert FeeTransferFailed();
    }

    function _vested(bytes calldata args, uint256 time)
        private
        pure
        returns (Allocation memory allocation, uint256 amount)
    {
        // The schedule's layout depends on the type string, so read the
        // string alone first: abi.decode ignores the rest of the head.
        string memory allocationType = abi.decode(args, (string));
        bytes32 kind = keccak256(bytes(allocationType));
        if (kind == CALENDAR) {
            CalendarSchedule memory schedule;
            (, allocation, schedule) = abi.decode(args, (string, Allocation, CalendarSchedule));
            amount = _calendarVested(allocation.totalAllocation, schedule, time);
        } else if (kind == INTERVAL) {
            IntervalSchedule memory schedule;
            (, allocation, schedule) = abi.decode(args, (string, Allocation, IntervalSchedule));
            amount = _intervalVested(allocation.totalAllocation, schedule, time);
        } else {
            revert UnknownAllocationType(allocationType);
        }
    }

    /// min(total, total * P / 1e6) with P the percents of the unlocks reached,
    /// walking them in order and stopping at the first one still to come.
    function _calendarVested(uint256 total, CalendarSchedule memory s, uint256 time) private pure returns (uint256) {
        uint256 n = s.unlockTimestamps.length;
        if (n != s.unlockPercents.length) revert ScheduleLengthMismatch(n, s.unlockPercents.length);
        uint256 percent;
        for (uint256 i; i < n && s.unlockTimestamps[i] <= time; ++i) {
            percent += s.unlockPercents[i];
        }
        return Math.min(total, Math.mulDiv(total, percent, PERCENT_SCALE));
    }

    /// The whole total from the end of the last piece on; before that each
    /// started piece adds (total * percent / 1e6) * k / n, rounded down on
    /// its own, after k of its n periods.
    function _intervalVested(uint256 total, IntervalSchedule memory s, uint256 time) private pure returns (uint256) {
        uint256 count = s.pieces.length;
        if (count == 0) return 0;
        Piece memory last = s.pieces[count - 1];
        if (time >= uint256(last.startDate) + uint256(last.periodLength) * last.numberOfPeriods) return total;
        uint256 sum;
        for (uint256 i; i < count; ++i) {
            Piece memory p = s.pieces[i];
            if (time < p.startDate) continue;
            uint256 k = Math.min(p.numberOfPeriods, (time - p.startDate) / p.periodLength);
            sum += Math.mulDiv(total, p.percent, PERCENT_SCALE) * k / p.numberOfPeriods;
        }
        return Math.min(total, sum);
    }
}
