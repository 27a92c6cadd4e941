// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The ERC-4337 v0.7+ user operation (EntryPoint v0.7 and v0.8 share it).
struct PackedUserOperation {
    address sender;
    uint256 nonce;
    bytes initCode;
    bytes callData;
    bytes32 accountGasLimits;
    uint256 preVerificationGas;
    bytes32 gasFees;
    bytes paymasterAndData;
    bytes signature;
}

/// A minimal ERC-7579 account written against Kernel v3's published interface: `entrypoint()`
/// in lower case, `accountId()`, ERC-7579 `execute(mode, executionCalldata)` with single calls,
/// ERC-1271 `isValidSignature`, and ERC-4337 `validateUserOp` over one ECDSA owner. Not Kernel:
/// it answers the same probes, so presend is tried on what a Kernel account answers.
/// Written for the local demo world only.
contract DemoModularAccount {
    address public immutable entrypoint;
    address public immutable owner;

    constructor(address entrypoint_, address owner_) {
        entrypoint = entrypoint_;
        owner = owner_;
    }

    receive() external payable {}

    function accountId() external pure returns (string memory) {
        return "presend.demo-modular.v1";
    }

    function supportsExecutionMode(bytes32 mode) external pure returns (bool) {
        return mode == bytes32(0);
    }

    /// ERC-7579 single call (mode 0): executionCalldata is abi.encodePacked(target, value, data).
    function execute(bytes32 mode, bytes calldata executionCalldata) external payable {
        require(msg.sender == entrypoint, "only the EntryPoint");
        require(mode == bytes32(0), "unsupported mode");
        address target = address(bytes20(executionCalldata[0:20]));
        uint256 value = uint256(bytes32(executionCalldata[20:52]));
        (bool ok, bytes memory result) = target.call{value: value}(executionCalldata[52:]);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
    }

    function validateUserOp(PackedUserOperation calldata userOp, bytes32 userOpHash, uint256 missingAccountFunds)
        external
        returns (uint256 validationData)
    {
        require(msg.sender == entrypoint, "only the EntryPoint");
        validationData = _signer(userOpHash, userOp.signature) == owner ? 0 : 1;
        if (missingAccountFunds > 0) {
            (bool paid,) = payable(msg.sender).call{value: missingAccountFunds}("");
            (paid);
        }
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        return _signer(hash, signature) == owner ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }

    function _signer(bytes32 hash, bytes calldata signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        return ecrecover(hash, v, r, s);
    }
}
