// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title DemoBatchExecutor
/// @notice A minimal EIP-7702 delegate: an EOA that delegates to it can run a batch of calls in
/// one transaction it sends to itself. The demo world's delegated EOA points here.
contract DemoBatchExecutor {
    struct Call {
        address target;
        uint256 value;
        bytes data;
    }

    /// @notice Runs the calls; only the delegating account itself may trigger it.
    function execute(Call[] calldata calls) external payable {
        require(msg.sender == address(this), "DemoBatchExecutor: only the account itself");
        for (uint256 i = 0; i < calls.length; i++) {
            (bool success, bytes memory result) = calls[i].target.call{value: calls[i].value}(calls[i].data);
            if (!success) {
                assembly {
                    revert(add(result, 0x20), mload(result))
                }
            }
        }
    }

    receive() external payable {}
}
