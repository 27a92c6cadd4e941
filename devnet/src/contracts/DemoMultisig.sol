// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title DemoMultisig
/// @notice A contract that answers the Safe read interface (`getOwners`, `getThreshold`, `nonce`,
/// `VERSION`, `isOwner`), so classifiers see a Safe-like multisig. The demo world deploys it on
/// ethereum only: sending to the same address on another chain would strand the funds, which is
/// the "code on another chain but none here" danger path.
contract DemoMultisig {
    string public constant VERSION = "1.4.1";

    address[] private owners;
    uint256 private threshold;
    uint256 public nonce;

    event SafeReceived(address indexed sender, uint256 value);

    constructor(address[] memory initialOwners, uint256 initialThreshold) {
        require(initialThreshold > 0 && initialThreshold <= initialOwners.length, "DemoMultisig: bad threshold");
        owners = initialOwners;
        threshold = initialThreshold;
    }

    receive() external payable {
        emit SafeReceived(msg.sender, msg.value);
    }

    function getOwners() external view returns (address[] memory) {
        return owners;
    }

    function getThreshold() external view returns (uint256) {
        return threshold;
    }

    function isOwner(address candidate) external view returns (bool) {
        for (uint256 i = 0; i < owners.length; i++) {
            if (owners[i] == candidate) return true;
        }
        return false;
    }
}
