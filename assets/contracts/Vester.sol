// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";

/// @title Merkle vester
/// @notice Holds the tokens of one distribution. The admin commits
/// allocations as merkle roots; a beneficiary proves its allocation and
/// withdraws what the allocation's unlock schedule has released at
/// block.timestamp, paying the claim fee in native coin.
///
/// Leaf format (decisions.md D8): leaf = keccak256(decodableArgs), hashed
/// once, with decodableArgs = abi.encode(string allocationType, Allocation,
/// Schedule), where Schedule is a CalendarSchedule for "calendar" and an
/// IntervalSchedule for "interval". Inner nodes hash sorted pairs
/// (OpenZeppelin MerkleProof). Percents are millionths.
///
/// The unlock math is mirrored to the unit by wallet/vesting in Go; change
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
    /// @notice The exact msg.value withdraw requires, in wei.
    uint256 public immutable claimFee;

    /// @notice Roots are numbered from 0 in the order they were added.
    uint256 public rootCount;
    mapping(uint256 rootIndex => bytes32 root) public merkleRoots;
    /// @notice Paid out so far per allocation id, across all roots, so that
    /// an allocation repeated in a later root cannot be withdrawn twice.
    mapping(string allocationId => uint256 amount) public withdrawn;

    event RootAdded(uint256 indexed index, bytes32 root);
    event Funded(address indexed from, uint256 amount);
    event Withdrawn(address indexed beneficiary, uint32 indexed rootIndex, string allocationId, uint256 amount);
    event FeesSwept(address indexed to, uint256 amount);

    error NotAdmin(address caller);
    error ZeroAmount();
    error WrongFee(uint256 expected, uint256 sent);
    error UnknownRoot(uint32 rootIndex);
    error InvalidProof();
    error UnknownAllocationType(string allocationType);
    error ScheduleLengthMismatch(uint256 timestamps, uint256 percents);
    error NotBeneficiary(address caller, address beneficiary);
    error AmountExceedsUnlocked(uint256 requested, uint256 available);
    error FeeTransferFailed();

    modifier onlyAdmin() {
        if (msg.sender != admin) revert NotAdmin(msg.sender);
        _;
    }

    constructor(IERC20 token_, uint256 claimFee_) {
        token = token_;
        admin = msg.sender;
        claimFee = claimFee_;
    }

    /// @notice Commits a merkle root of allocations and returns its index.
    function addRoot(bytes32 root) external onlyAdmin returns (uint256 index) {
        index = rootCount++;
        merkleRoots[index] = root;
        emit RootAdded(index, root);
    }

    /// @notice Pulls `amount` tokens from the caller (who must have approved
    /// them) into the vester.
    function fund(uint256 amount) external {
        if (amount == 0) revert ZeroAmount();
        emit Funded(msg.sender, amount);
        token.safeTransferFrom(msg.sender, address(this), amount);
    }

    /// @notice Pays `withdrawalAmount` of the proven allocation to its
    /// beneficiary, who must be the caller. Refusals, in the order checked:
    /// ZeroAmount, WrongFee, UnknownRoot, InvalidProof, UnknownAllocationType
    /// or ScheduleLengthMismatch, NotBeneficiary, AmountExceedsUnlocked.
    function withdraw(uint256 withdrawalAmount, uint32 rootIndex, bytes calldata decodableArgs, bytes32[] calldata proof)
        external
        payable
    {
        if (withdrawalAmount == 0) revert ZeroAmount();
        if (msg.value != claimFee) revert WrongFee(claimFee, msg.value);
        if (rootIndex >= rootCount) revert UnknownRoot(rootIndex);
        if (!MerkleProof.verifyCalldata(proof, merkleRoots[rootIndex], keccak256(decodableArgs))) {
            revert InvalidProof();
        }

        (Allocation memory allocation, uint256 unlockedAmount) = _unlocked(decodableArgs, block.timestamp);
        address beneficiary = allocation.originalBeneficiary;
        if (msg.sender != beneficiary) revert NotBeneficiary(msg.sender, beneficiary);
        uint256 already = withdrawn[allocation.id];
        // A later root may carry the same allocation with a smaller total.
        uint256 available = unlockedAmount > already ? unlockedAmount - already : 0;
        if (withdrawalAmount > available) revert AmountExceedsUnlocked(withdrawalAmount, available);

        withdrawn[allocation.id] = already + withdrawalAmount;
        emit Withdrawn(beneficiary, rootIndex, allocation.id, withdrawalAmount);
        token.safeTransfer(beneficiary, withdrawalAmount);
    }

    /// @notice The amount an allocation's schedule has unlocked at
    /// `timestamp`, before subtracting what was withdrawn. No proof needed:
    /// it only evaluates the leaf's content.
    function unlocked(bytes calldata decodableArgs, uint256 timestamp) external pure returns (uint256 amount) {
        (, amount) = _unlocked(decodableArgs, timestamp);
    }

    /// @notice Sends the collected claim fees to `to`.
    function sweepFees(address payable to) external onlyAdmin {
        uint256 amount = address(this).balance;
        emit FeesSwept(to, amount);
        (bool ok,) = to.call{value: amount}("");
        if (!ok) revert FeeTransferFailed();
    }

    function _unlocked(bytes calldata args, uint256 time)
        private
        pure
        returns (Allocation memory allocation, uint256 amount)
    {
        // The schedule's layout depends on the type string, so read the
        // string alone first: abi.decode ignores the rest of the head.
        string memory allocationType = abi.decode(args, (string));
        bytes32 kind = keccak256(bytes(allocationType));
        uint256 ppm;
        if (kind == CALENDAR) {
            CalendarSchedule memory schedule;
            (, allocation, schedule) = abi.decode(args, (string, Allocation, CalendarSchedule));
            ppm = _calendarPPM(schedule, time);
        } else if (kind == INTERVAL) {
            IntervalSchedule memory schedule;
            (, allocation, schedule) = abi.decode(args, (string, Allocation, IntervalSchedule));
            ppm = _intervalPPM(schedule, time);
        } else {
            revert UnknownAllocationType(allocationType);
        }
        amount = Math.mulDiv(allocation.totalAllocation, ppm, PERCENT_SCALE);
    }

    /// Every unlock whose timestamp has been reached counts, capped at 100%.
    function _calendarPPM(CalendarSchedule memory s, uint256 time) private pure returns (uint256 ppm) {
        uint256 n = s.unlockTimestamps.length;
        if (n != s.unlockPercents.length) revert ScheduleLengthMismatch(n, s.unlockPercents.length);
        for (uint256 i; i < n; ++i) {
            if (s.unlockTimestamps[i] <= time) {
                uint256 p = s.unlockPercents[i];
                // Returning early also keeps the sum from overflowing.
                if (p >= PERCENT_SCALE) return PERCENT_SCALE;
                ppm += p;
            }
        }
        return Math.min(ppm, PERCENT_SCALE);
    }

    function _intervalPPM(IntervalSchedule memory s, uint256 time) private pure returns (uint256 ppm) {
        for (uint256 i; i < s.pieces.length; ++i) {
            ppm += _piecePPM(s.pieces[i], time);
        }
        return Math.min(ppm, PERCENT_SCALE);
    }

    /// A piece releases percent * k / numberOfPeriods after k whole periods
    /// (integer division per piece). A piece of one period of length 0
    /// releases all of it at startDate; other empty pieces release nothing.
    function _piecePPM(Piece memory p, uint256 time) private pure returns (uint256) {
        if (time < p.startDate || p.numberOfPeriods == 0) return 0;
        if (p.periodLength == 0) return p.numberOfPeriods == 1 ? p.percent : 0;
        uint256 k = Math.min((time - p.startDate) / p.periodLength, p.numberOfPeriods);
        return uint256(p.percent) * k / p.numberOfPeriods;
    }
}
