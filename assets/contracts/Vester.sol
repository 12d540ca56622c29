// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {MerkleProof} from "@openzeppelin/contracts/utils/cryptography/MerkleProof.sol";
import {Math} from "@openzeppelin/contracts/utils/math/Math.sol";
import {Multicall} from "@openzeppelin/contracts/utils/Multicall.sol";
import {ReentrancyGuard} from "@openzeppelin/contracts/utils/ReentrancyGuard.sol";

/// @notice What a vester calls after a claim that names it: the claimed
/// tokens are already in the handler's hands (production's
/// IPostClaimHandler, dist_v2.1.2).
interface IPostClaimHandler {
    function handlePostClaim(
        IERC20 claimToken,
        uint256 amount,
        address originalBeneficiary,
        address withdrawalAddress,
        string memory allocationId,
        bytes memory extraData
    ) external;
}

// The custom errors carry production's names and (empty) parameter lists,
// so that their selectors are production's: a client decodes a revert of
// either contract the same way (InsufficientFunds() is 0x356680b7).
error ZeroToken();
error ZeroBeneficiary();
error AmountZero();
error NotCancellable();
error NotRevokable();
error NotTransferable();
error SameBeneficiaryAddress();
error InvalidWithdrawal();
error AlreadyTerminated();
error AlreadyFullyUnlocked();
error InvalidAllocationType();
error DeflationaryTokensNotSupported();
error InvalidAllocation();
error InsufficientFunds();
error InvalidMerkleProof();
error InvalidFeeCollector();
error InvalidFeeFundsSent();
error ClaimHandlerAlreadyWhitelisted();
error ClaimHandlerNotYetWhitelisted();
error PostClaimHandlerNotWhitelisted();
error ETHTransferFailed();

/// @title Merkle vester
/// @notice Holds the tokens of one distribution. A benefactor commits
/// allocations as merkle roots; anyone may prove an allocation and withdraw
/// what its unlock schedule has vested; the tokens go to the allocation's
/// withdrawal address. A withdraw pays the claim fee in native coin,
/// exactly, to the fee collector.
///
/// Its interface and behaviour are those of the production vester the
/// service deploys (Magna's MerkleVester, version dist_v2.1.2;
/// docs/deployment.md D8, D16, D18), so that what allot computes and checks
/// against this sandbox holds there too. Our own code: the function,
/// event and error signatures, the roles, the order of the checks and the
/// vesting math are production's; production's leaf-data getters, fee
/// setter and maximum fee, token rescue and revokeAll are left out (allot
/// uses none), and so the constructor takes fewer arguments. Multicall is
/// OpenZeppelin's, as production's is: multicall(bytes[]) is not payable,
/// so it batches withdraws only when each one's claim fee is 0.
///
/// Leaf format (D8): leaf = keccak256(decodableArgs), hashed once, with
/// decodableArgs = abi.encode(string allocationType, Allocation, Schedule),
/// where Schedule is a CalendarSchedule for "calendar" and an
/// IntervalSchedule for "interval". Inner nodes hash sorted pairs
/// (OpenZeppelin MerkleProof). Percents are millionths.
///
/// The vesting math is mirrored to the wei by wallet/vesting in Go; change
/// both together.
contract Vester is AccessControl, ReentrancyGuard, Multicall {
    using SafeERC20 for IERC20;

    /// @notice 100% in the unit of schedule percents.
    uint256 public constant PERCENT_SCALE = 1_000_000;

    /// @notice May commit roots, fund and defund, cancel, revoke, and
    /// transfer allocations that are transferable by the admin.
    bytes32 public constant BENEFACTOR = keccak256("BENEFACTOR");
    /// @notice May change the post-claim handler whitelist.
    bytes32 public constant POST_CLAIM_HANDLER_MANAGER = keccak256("POST_CLAIM_HANDLER_MANAGER");

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

    /// @notice What happened to an allocation since its leaf was committed
    /// (production's DistributionState). terminatedTimestamp is 0 while
    /// active, 1 once revoked, else the time it was cancelled.
    /// terminatedWithdrawn, fundedAmount and terminatedAmount are never
    /// written by a merkle vester (it funds the distribution as a whole) and
    /// read 0, as in production.
    struct DistributionState {
        address withdrawalAddress;
        uint32 terminatedTimestamp;
        uint256 withdrawn;
        uint256 terminatedWithdrawn;
        uint256 fundedAmount;
        uint256 terminatedAmount;
    }

    bytes32 private constant CALENDAR = keccak256("calendar");
    bytes32 private constant INTERVAL = keccak256("interval");
    /// The terminatedTimestamp of a revoked allocation: its vesting is
    /// computed at time 1, when nothing has vested.
    uint32 private constant REVOKED = 1;

    IERC20 public immutable token;
    /// @notice Where every claim fee goes, as it is paid.
    address public immutable feeCollector;
    /// @notice The msg.value a withdraw requires, in wei (see getClaimFee).
    uint256 public immutable claimFee;
    /// @notice When true, an allocation pays the claim fee on its first
    /// withdraw only.
    bool public immutable shouldPayClaimFeeOnlyOnce;

    /// @notice The committed roots, numbered from 0 in the order added. An
    /// array, as in production: reading past its end reverts, and a call
    /// naming a root past it reverts with Panic 0x32.
    bytes32[] public merkleRoots;
    /// @notice An allocation's state, by allocation id, across all roots.
    mapping(string allocationId => DistributionState) public schedules;
    /// @notice Everything withdrawn from this vester.
    uint256 public totalWithdrawn;

    mapping(string allocationId => bool) private _feePaid;
    /// The handler whitelist, kept as production's EnumerableSet keeps it:
    /// a list, and each member's position in it plus one.
    address[] private _handlers;
    mapping(address handler => uint256 position) private _handlerPosition;

    event ScheduleCanceled(string id);
    event ScheduleRevoked(string id);
    event TransferredBeneficiary(string id, address newBeneficiary);

    /// @param postClaimHandlers_ the whitelist to start with; address 0 on
    /// it allows the direct claim (the four-argument withdraw).
    constructor(
        IERC20 token_,
        address benefactor,
        uint256 claimFee_,
        address feeCollector_,
        address[] memory postClaimHandlers_,
        bool shouldPayClaimFeeOnlyOnce_
    ) {
        if (address(token_) == address(0)) revert ZeroToken();
        if (benefactor == address(0)) revert ZeroBeneficiary();
        if (feeCollector_ == address(0) && claimFee_ > 0) revert InvalidFeeCollector();
        token = token_;
        claimFee = claimFee_;
        feeCollector = feeCollector_;
        shouldPayClaimFeeOnlyOnce = shouldPayClaimFeeOnlyOnce_;
        _grantRole(DEFAULT_ADMIN_ROLE, benefactor);
        _grantRole(BENEFACTOR, benefactor);
        _grantRole(POST_CLAIM_HANDLER_MANAGER, benefactor);
        for (uint256 i; i < postClaimHandlers_.length; ++i) {
            _addHandler(postClaimHandlers_[i]);
        }
    }

    /// @notice Commits a merkle root of allocations and returns its index.
    function addAllocationRoot(bytes32 merkleRoot) external nonReentrant onlyRole(BENEFACTOR) returns (uint256) {
        merkleRoots.push(merkleRoot);
        return merkleRoots.length - 1;
    }

    /// @notice Pulls `amount` tokens from the caller (who must have approved
    /// them) into the vester. Anyone may fund.
    function fund(uint256 amount) external nonReentrant {
        if (amount == 0) revert AmountZero();
        uint256 before = token.balanceOf(address(this));
        token.safeTransferFrom(msg.sender, address(this), amount);
        if (before + amount != token.balanceOf(address(this))) revert DeflationaryTokensNotSupported();
    }

    /// @notice Sends `amount` tokens back to the benefactor calling. It may
    /// leave the vester holding less than is vested: withdraws are then
    /// served first come, first served (see withdraw).
    function defund(uint256 amount) external nonReentrant onlyRole(BENEFACTOR) {
        token.safeTransfer(msg.sender, amount);
    }

    /// @notice The whitelisted post-claim handlers; address 0 among them
    /// means the direct claim is allowed.
    function getPostClaimHandlers() external view returns (address[] memory) {
        return _handlers;
    }

    function addPostClaimHandlerToWhitelist(IPostClaimHandler handler)
        external
        onlyRole(POST_CLAIM_HANDLER_MANAGER)
    {
        if (!_addHandler(address(handler))) revert ClaimHandlerAlreadyWhitelisted();
    }

    function removePostClaimHandlerToWhitelist(IPostClaimHandler handler)
        external
        onlyRole(POST_CLAIM_HANDLER_MANAGER)
    {
        uint256 position = _handlerPosition[address(handler)];
        if (position == 0) revert ClaimHandlerNotYetWhitelisted();
        // The last member takes the place of the one removed.
        address last = _handlers[_handlers.length - 1];
        _handlers[position - 1] = last;
        _handlerPosition[last] = position;
        _handlers.pop();
        delete _handlerPosition[address(handler)];
    }

    function _addHandler(address handler) private returns (bool added) {
        if (_handlerPosition[handler] != 0) return false;
        _handlers.push(handler);
        _handlerPosition[handler] = _handlers.length;
        return true;
    }

    /// @notice The exact msg.value the next withdraw of an allocation must
    /// carry: claimFee, or 0 once it has paid when the vester asks the fee
    /// once. Not a view, as in production: read it with eth_call.
    function getClaimFee(string memory allocationId) external returns (uint256) {
        return shouldPayClaimFeeOnlyOnce && _feePaid[allocationId] ? 0 : claimFee;
    }

    /// @notice The direct claim: withdraw through handler address 0, which
    /// must be on the whitelist.
    function withdraw(uint256 withdrawalAmount, uint32 rootIndex, bytes memory decodableArgs, bytes32[] calldata proof)
        external
        payable
    {
        withdraw(withdrawalAmount, rootIndex, decodableArgs, proof, IPostClaimHandler(address(0)), "");
    }

    /// @notice Pays `withdrawalAmount` of the proven allocation (0: all that
    /// is withdrawable) to its withdrawal address, or, when
    /// `postClaimHandler` is not 0, to that handler, which is then called
    /// with the claim. Whoever sends it.
    ///
    /// withdrawable = min(vested - withdrawn, the vester's token balance),
    /// vested computed at the block time, or at the termination time when
    /// the allocation was cancelled or revoked (time 1). Refusals, in
    /// production's order: InvalidAllocationType, Panic 0x32 (no such
    /// root), InvalidMerkleProof, a Panic of the vesting math, Panic 0x11
    /// (withdrawn more than vested: a revoked allocation that had paid out),
    /// InvalidFeeFundsSent, InvalidWithdrawal, InsufficientFunds (more than
    /// withdrawable), AmountZero (nothing withdrawable),
    /// PostClaimHandlerNotWhitelisted.
    function withdraw(
        uint256 withdrawalAmount,
        uint32 rootIndex,
        bytes memory decodableArgs,
        bytes32[] calldata proof,
        IPostClaimHandler postClaimHandler,
        bytes memory extraData
    ) public payable nonReentrant {
        (Allocation memory allocation, uint256 vestedAmount) = _provenVested(rootIndex, decodableArgs, proof);
        DistributionState storage state = schedules[allocation.id];
        uint256 withdrawable = vestedAmount - state.withdrawn;
        // Production records the original beneficiary on the first touch.
        if (state.withdrawalAddress == address(0)) state.withdrawalAddress = allocation.originalBeneficiary;
        withdrawable = Math.min(withdrawable, token.balanceOf(address(this)));
        _takeClaimFee(allocation.id);

        if (state.withdrawn + state.terminatedWithdrawn + withdrawable > allocation.totalAllocation) {
            revert InvalidWithdrawal();
        }
        if (withdrawalAmount > withdrawable) revert InsufficientFunds();
        if (withdrawable == 0) revert AmountZero();
        uint256 amount = withdrawalAmount == 0 ? withdrawable : withdrawalAmount;

        state.withdrawn += amount;
        totalWithdrawn += amount;
        if (_handlerPosition[address(postClaimHandler)] == 0) revert PostClaimHandlerNotWhitelisted();
        if (address(postClaimHandler) == address(0)) {
            token.safeTransfer(state.withdrawalAddress, amount);
        } else {
            token.safeTransfer(address(postClaimHandler), amount);
            postClaimHandler.handlePostClaim(
                token, amount, allocation.originalBeneficiary, state.withdrawalAddress, allocation.id, extraData
            );
        }
    }

    /// @notice Points an allocation's future withdraws at `newAddress`. Sent
    /// by a BENEFACTOR when the leaf is transferableByAdmin, or by the
    /// current withdrawal address (the original beneficiary until a first
    /// transfer) when it is transferableByBeneficiary. Refusals, in order:
    /// Panic 0x32, InvalidMerkleProof, ZeroBeneficiary,
    /// SameBeneficiaryAddress, NotTransferable.
    function transferBeneficiaryAddress(
        address newAddress,
        uint32 rootIndex,
        bytes memory decodableArgs,
        bytes32[] calldata proof
    ) external nonReentrant {
        Allocation memory allocation = _provenAllocation(rootIndex, decodableArgs, proof);
        DistributionState storage state = schedules[allocation.id];
        if (state.withdrawalAddress == address(0)) state.withdrawalAddress = allocation.originalBeneficiary;
        if (newAddress == address(0)) revert ZeroBeneficiary();
        if (newAddress == state.withdrawalAddress) revert SameBeneficiaryAddress();
        bool byAdmin = hasRole(BENEFACTOR, msg.sender) && allocation.transferableByAdmin;
        bool byBeneficiary = msg.sender == state.withdrawalAddress && allocation.transferableByBeneficiary;
        if (!byAdmin && !byBeneficiary) revert NotTransferable();
        state.withdrawalAddress = newAddress;
        emit TransferredBeneficiary(allocation.id, newAddress);
    }

    /// @notice Stops an allocation's vesting now: what vested until now
    /// stays withdrawable. Refusals, in order: AccessControlUnauthorizedAccount,
    /// Panic 0x32, InvalidMerkleProof, InvalidAllocation, NotCancellable,
    /// AlreadyTerminated, AlreadyFullyUnlocked (the schedule has ended).
    function cancel(uint32 rootIndex, bytes memory decodableArgs, bytes32[] calldata proof)
        external
        nonReentrant
        onlyRole(BENEFACTOR)
    {
        Allocation memory allocation = _provenAllocation(rootIndex, decodableArgs, proof);
        if (allocation.originalBeneficiary == address(0)) revert InvalidAllocation();
        if (!allocation.cancelable) revert NotCancellable();
        if (schedules[allocation.id].terminatedTimestamp != 0) revert AlreadyTerminated();
        if (block.timestamp >= _scheduleEnd(decodableArgs)) revert AlreadyFullyUnlocked();
        schedules[allocation.id].terminatedTimestamp = uint32(block.timestamp);
        emit ScheduleCanceled(allocation.id);
    }

    /// @notice Takes back everything of an allocation not withdrawn yet,
    /// vested or not. Refusals, in order: AccessControlUnauthorizedAccount,
    /// Panic 0x32, InvalidMerkleProof, InvalidAllocation, NotRevokable,
    /// AlreadyTerminated.
    function revoke(uint32 rootIndex, bytes memory decodableArgs, bytes32[] calldata proof)
        external
        nonReentrant
        onlyRole(BENEFACTOR)
    {
        Allocation memory allocation = _provenAllocation(rootIndex, decodableArgs, proof);
        if (allocation.originalBeneficiary == address(0)) revert InvalidAllocation();
        if (!allocation.revokable) revert NotRevokable();
        if (schedules[allocation.id].terminatedTimestamp != 0) revert AlreadyTerminated();
        schedules[allocation.id].terminatedTimestamp = REVOKED;
        emit ScheduleRevoked(allocation.id);
    }

    /// @notice The amount an allocation's schedule has vested at
    /// `timestamp`, before termination and withdrawals. The sandbox's own
    /// (production has no such function): no proof needed, it only
    /// evaluates the leaf's content, and reverts where withdraw's vesting
    /// math does.
    function unlocked(bytes calldata decodableArgs, uint256 timestamp) external pure returns (uint256 amount) {
        (, amount) = _vested(decodableArgs, timestamp);
    }

    /// The allocation of a leaf proven under root rootIndex, and what it has
    /// vested by now (by its termination time, when terminated).
    function _provenVested(uint32 rootIndex, bytes memory args, bytes32[] calldata proof)
        private
        view
        returns (Allocation memory allocation, uint256 amount)
    {
        // Production decodes the leaf before it looks for the root.
        _allocationType(args);
        (, allocation) = abi.decode(args, (string, Allocation));
        _prove(rootIndex, args, proof);
        uint256 terminated = schedules[allocation.id].terminatedTimestamp;
        uint256 time = terminated == 0 ? block.timestamp : Math.min(block.timestamp, terminated);
        (, amount) = _vested(args, time);
    }

    function _provenAllocation(uint32 rootIndex, bytes memory args, bytes32[] calldata proof)
        private
        view
        returns (Allocation memory allocation)
    {
        _prove(rootIndex, args, proof);
        (, allocation) = abi.decode(args, (string, Allocation));
    }

    function _prove(uint32 rootIndex, bytes memory args, bytes32[] calldata proof) private view {
        if (!MerkleProof.verifyCalldata(proof, merkleRoots[rootIndex], keccak256(args))) revert InvalidMerkleProof();
    }

    /// Production takes the fee on every withdraw, or on an allocation's
    /// first when it asks it once (and marks it paid only when it is not 0),
    /// and forwards it to the fee collector at once.
    function _takeClaimFee(string memory allocationId) private {
        uint256 fee = claimFee;
        if (shouldPayClaimFeeOnlyOnce) {
            if (_feePaid[allocationId] || fee == 0) {
                fee = 0;
            } else {
                _feePaid[allocationId] = true;
            }
        }
        if (msg.value != fee) revert InvalidFeeFundsSent();
        if (fee > 0) {
            (bool ok,) = feeCollector.call{value: fee}("");
            if (!ok) revert ETHTransferFailed();
        }
    }

    /// The time a schedule is fully unlocked: its last calendar timestamp,
    /// or the end of its last interval piece.
    function _scheduleEnd(bytes memory args) private pure returns (uint256) {
        if (_allocationType(args) == CALENDAR) {
            (,, CalendarSchedule memory calendar) = abi.decode(args, (string, Allocation, CalendarSchedule));
            return calendar.unlockTimestamps[calendar.unlockTimestamps.length - 1];
        }
        (,, IntervalSchedule memory interval) = abi.decode(args, (string, Allocation, IntervalSchedule));
        return _pieceEnd(interval.pieces[interval.pieces.length - 1]);
    }

    /// CALENDAR or INTERVAL; InvalidAllocationType for any other type.
    function _allocationType(bytes memory args) private pure returns (bytes32 kind) {
        // The schedule's layout depends on the type string, so read the
        // string alone first: abi.decode ignores the rest of the head.
        kind = keccak256(bytes(abi.decode(args, (string))));
        if (kind != CALENDAR && kind != INTERVAL) revert InvalidAllocationType();
    }

    function _vested(bytes memory args, uint256 time) private pure returns (Allocation memory allocation, uint256 amount) {
        if (_allocationType(args) == CALENDAR) {
            CalendarSchedule memory schedule;
            (, allocation, schedule) = abi.decode(args, (string, Allocation, CalendarSchedule));
            amount = _calendarVested(allocation.totalAllocation, schedule, time);
        } else {
            IntervalSchedule memory schedule;
            (, allocation, schedule) = abi.decode(args, (string, Allocation, IntervalSchedule));
            amount = _intervalVested(allocation.totalAllocation, schedule, time);
        }
    }

    /// min(total, total * P / 1e6) with P the percents of the unlocks reached,
    /// walking them in order and stopping at the first one still to come.
    /// As in production, a percent missing for a timestamp reached is an
    /// out-of-bounds read (Panic 0x32).
    function _calendarVested(uint256 total, CalendarSchedule memory s, uint256 time) private pure returns (uint256) {
        uint256 percent;
        for (uint256 i; i < s.unlockTimestamps.length && s.unlockTimestamps[i] <= time; ++i) {
            percent += s.unlockPercents[i];
        }
        return Math.min(total, Math.mulDiv(total, percent, PERCENT_SCALE));
    }

    /// The whole total from the end of the last piece on; before that each
    /// started piece adds (total * percent / 1e6) * k / n, rounded down on
    /// its own, after k of its n periods. As in production, a schedule
    /// without pieces underflows (Panic 0x11), as does a last piece ending
    /// after 2^32 - 1, and a piece with periods of length 0 divides by zero
    /// (Panic 0x12) from its start until the schedule's end.
    function _intervalVested(uint256 total, IntervalSchedule memory s, uint256 time) private pure returns (uint256) {
        uint256 count = s.pieces.length;
        if (time >= _pieceEnd(s.pieces[count - 1])) return total;
        uint256 sum;
        for (uint256 i; i < count; ++i) {
            Piece memory p = s.pieces[i];
            if (time < p.startDate) continue;
            uint256 k = Math.min(p.numberOfPeriods, (time - p.startDate) / p.periodLength);
            sum += Math.mulDiv(total, p.percent, PERCENT_SCALE) * k / p.numberOfPeriods;
        }
        return Math.min(total, sum);
    }

    /// The piece's end, computed in 32 bits as production does.
    function _pieceEnd(Piece memory p) private pure returns (uint32) {
        return p.startDate + p.periodLength * p.numberOfPeriods;
    }
}
