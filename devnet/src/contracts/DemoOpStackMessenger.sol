// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// Stands in for the OP Stack's L1 side behind a real L1StandardBridge, written against the
/// published interfaces the bridge calls: CrossDomainMessenger `sendMessage` (it keeps the ETH,
/// as the OptimismPortal does, and records the message), SystemConfig `gasPayingToken` (ETH) and
/// SuperchainConfig `paused`. Written for the local demo world only.
contract DemoOpStackMessenger {
    event SentMessage(address indexed target, address sender, bytes message, uint32 gasLimit, uint256 value);

    function sendMessage(address target, bytes calldata message, uint32 minGasLimit) external payable {
        emit SentMessage(target, msg.sender, message, minGasLimit, msg.value);
    }

    function gasPayingToken() external pure returns (address addr, uint8 decimals) {
        return (0xEeeeeEeeeEeEeeEeEeEeeEEEeeeeEeeeeeeeEEeE, 18);
    }

    function paused() external pure returns (bool) {
        return false;
    }
}
