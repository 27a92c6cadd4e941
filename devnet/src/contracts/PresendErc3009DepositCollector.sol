// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice The EIP-3009 entry point the collector uses (USDC v2.2 has this `bytes signature` overload).
interface IReceiveWithAuthorization {
    function receiveWithAuthorization(
        address from,
        address to,
        uint256 value,
        uint256 validAfter,
        uint256 validBefore,
        bytes32 nonce,
        bytes calldata signature
    ) external;
}

/// @title PresendErc3009DepositCollector
/// @notice The deposit collector of the x402 `batch-settlement` scheme for EIP-3009 tokens: it takes
/// the payer's `ReceiveWithAuthorization` (to this collector, nonce = keccak256(abi.encode(channelId,
/// salt))), as the official x402 EVM package's client signs it and its facilitator encodes it, and hands the
/// funds to the batch-settlement escrow.
/// @dev Only the escrow at its canonical address may call it: anyone else could otherwise relay a
/// payer's authorization and take the funds. `receiveWithAuthorization` (not `transfer...`) makes the
/// token check that this collector is the payee, so an authorization cannot be front-run elsewhere;
/// the nonce, derived here from the channel the escrow names, binds it to that one channel. Installed
/// with `anvil_setCode`: constants only, no constructor.
contract PresendErc3009DepositCollector {
    /// @notice The escrow this collector serves (the scheme's canonical batch-settlement address).
    address public constant BATCH_SETTLEMENT = 0x4020074e9dF2ce1deE5A9C1b5c3f541D02a10003;

    error OnlyBatchSettlement();
    error TokenTransferFailed();

    /// @param collectorData abi.encode(uint256 validAfter, uint256 validBefore, uint256 salt, bytes signature)
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData)
        external
    {
        if (msg.sender != BATCH_SETTLEMENT) revert OnlyBatchSettlement();
        (uint256 validAfter, uint256 validBefore, uint256 salt, bytes memory signature) =
            abi.decode(collectorData, (uint256, uint256, uint256, bytes));
        bytes32 nonce = keccak256(abi.encode(channelId, salt));
        IReceiveWithAuthorization(token).receiveWithAuthorization(
            payer, address(this), amount, validAfter, validBefore, nonce, signature
        );
        (bool success, bytes memory result) =
            token.call(abi.encodeWithSignature("transfer(address,uint256)", BATCH_SETTLEMENT, amount));
        if (!success || (result.length != 0 && !abi.decode(result, (bool)))) revert TokenTransferFailed();
    }
}
