// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @notice What the escrow asks of a deposit collector: move `amount` of `token` from `payer` into the
/// escrow (msg.sender), with the payer's authorization in `collectorData`, bound to `channelId`.
interface IPresendDepositCollector {
    function collect(address payer, address token, uint256 amount, bytes32 channelId, bytes calldata collectorData)
        external;
}

/// @title PresendBatchSettlement
/// @notice The escrow of the x402 `batch-settlement` scheme for the local world, written against the
/// interface the official x402 EVM package's client, server and facilitator call: its ABI (deposit, claim,
/// claimWithSignature, settle, refund, refundWithSignature, initiateWithdraw, finalizeWithdraw,
/// multicall and the views), its `Settled` event, and its EIP-712 types under the domain
/// ("x402 Batch Settlement", "1", chain id, this address).
///
/// A channel is identified by the EIP-712 hash of its immutable config. It holds `balance` (all
/// deposits minus refunds and withdrawals) and `totalClaimed` (the cumulative amount the receiver
/// has claimed with the payer's vouchers). A voucher signs a cumulative ceiling, so claims only move
/// `totalClaimed` up; claiming moves no tokens, `settle` sweeps everything a receiver has claimed in
/// one transfer. The receiver side refunds the unclaimed rest at once; the payer can always leave
/// through a timed withdrawal.
/// @dev The local world installs this runtime code with `anvil_setCode` at the scheme's canonical
/// address, so nothing may depend on a constructor: no immutables, and the EIP-712 domain is derived
/// from `address(this)` and `block.chainid` on every call.
contract PresendBatchSettlement {
    struct ChannelConfig {
        address payer;
        /// @dev Signs vouchers with plain ECDSA (a session key); zero means the payer signs them itself.
        address payerAuthorizer;
        address receiver;
        /// @dev Authorizes claims and refunds; never zero.
        address receiverAuthorizer;
        address token;
        uint40 withdrawDelay;
        bytes32 salt;
    }

    struct Voucher {
        ChannelConfig channel;
        uint128 maxClaimableAmount;
    }

    struct VoucherClaim {
        Voucher voucher;
        bytes signature;
        /// @dev The channel's cumulative claimed amount after this claim (at most the voucher's ceiling).
        uint128 totalClaimed;
    }

    struct ChannelBalance {
        uint128 balance;
        uint128 totalClaimed;
    }

    struct PendingWithdrawal {
        uint128 amount;
        uint40 initiatedAt;
    }

    struct ReceiverBalance {
        uint128 totalClaimed;
        uint128 totalSettled;
    }

    bytes32 public constant CHANNEL_CONFIG_TYPEHASH = keccak256(
        "ChannelConfig(address payer,address payerAuthorizer,address receiver,address receiverAuthorizer,address token,uint40 withdrawDelay,bytes32 salt)"
    );
    bytes32 private constant VOUCHER_TYPEHASH = keccak256("Voucher(bytes32 channelId,uint128 maxClaimableAmount)");
    bytes32 private constant REFUND_TYPEHASH = keccak256("Refund(bytes32 channelId,uint256 nonce,uint128 amount)");
    bytes32 private constant CLAIM_ENTRY_TYPEHASH =
        keccak256("ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)");
    bytes32 private constant CLAIM_BATCH_TYPEHASH = keccak256(
        "ClaimBatch(ClaimEntry[] claims)ClaimEntry(bytes32 channelId,uint128 maxClaimableAmount,uint128 totalClaimed)"
    );
    bytes32 private constant EIP712_DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");
    bytes32 private constant DOMAIN_NAME_HASH = keccak256("x402 Batch Settlement");
    bytes32 private constant DOMAIN_VERSION_HASH = keccak256("1");

    /// @dev The bounds the scheme gives the payer's escape hatch: 15 minutes to 30 days.
    uint40 public constant MIN_WITHDRAW_DELAY = 15 minutes;
    uint40 public constant MAX_WITHDRAW_DELAY = 30 days;

    /// @dev ERC-1271 magic value: bytes4(keccak256("isValidSignature(bytes32,bytes)")).
    bytes4 private constant ERC1271_MAGIC_VALUE = 0x1626ba7e;
    /// @dev Upper bound of a canonical `s` (EIP-2): a malleable copy of a signature is refused.
    uint256 private constant SECP256K1_HALF_ORDER = 0x7FFFFFFFFFFFFFFFFFFFFFFFFFFFFFFF5D576E7357A4501DDFE92F46681B20A0;
    /// @dev Transient-storage slot of the reentrancy lock (EIP-1153): keccak256("presend.batch-settlement.lock").
    uint256 private constant LOCK_SLOT = 0xb5f2f2b48dd85777ba44f54e90b7ed7b01241282a9d6ee280df4205a7b945ea3;

    mapping(bytes32 channelId => ChannelBalance) public channels;
    mapping(bytes32 channelId => PendingWithdrawal) public pendingWithdrawals;
    mapping(bytes32 channelId => uint256) public refundNonce;
    mapping(address receiver => mapping(address token => ReceiverBalance)) public receivers;

    event Deposited(bytes32 indexed channelId, address indexed payer, address collector, uint128 amount, uint128 balance);
    event Claimed(bytes32 indexed channelId, address indexed receiver, uint128 amount, uint128 totalClaimed);
    event Settled(address indexed receiver, address indexed token, address indexed sender, uint128 amount);
    event Refunded(bytes32 indexed channelId, address indexed payer, uint128 amount, uint256 nonce);
    event WithdrawInitiated(bytes32 indexed channelId, uint128 amount, uint256 finalizableAt);
    event Withdrawn(bytes32 indexed channelId, address indexed payer, uint128 amount);

    error Reentered();
    error InvalidChannelConfig();
    error WithdrawDelayOutOfRange();
    error ZeroAmount();
    error DepositNotReceived();
    error EmptyClaimBatch();
    error NotReceiverSide();
    error NotPayerSide();
    error AuthorizerMismatch();
    error InvalidAuthorizerSignature();
    error InvalidVoucherSignature();
    error ClaimAboveVoucher();
    error ClaimExceedsBalance();
    error InvalidRefundNonce();
    error WithdrawAmountInvalid();
    error NoPendingWithdrawal();
    error WithdrawDelayNotElapsed();
    error TokenTransferFailed();

    modifier nonReentrant() {
        uint256 locked;
        assembly {
            locked := tload(LOCK_SLOT)
        }
        if (locked != 0) revert Reentered();
        assembly {
            tstore(LOCK_SLOT, 1)
        }
        _;
        assembly {
            tstore(LOCK_SLOT, 0)
        }
    }

    // ---------------------------------------------------------------- deposits

    /// @notice Adds `amount` to a channel, pulled from the payer by `collector` (which must deliver
    /// exactly `amount` to this contract). Anyone may submit it: the payer's authorization travels
    /// in `collectorData`, bound to this channel.
    function deposit(ChannelConfig calldata config, uint128 amount, address collector, bytes calldata collectorData)
        external
        nonReentrant
    {
        _requireValidConfig(config);
        if (amount == 0) revert ZeroAmount();
        bytes32 channelId = getChannelId(config);
        uint256 heldBefore = _balanceOf(config.token);
        IPresendDepositCollector(collector).collect(config.payer, config.token, amount, channelId, collectorData);
        uint256 heldAfter = _balanceOf(config.token);
        if (heldAfter < heldBefore || heldAfter - heldBefore != amount) revert DepositNotReceived();
        ChannelBalance storage channel = channels[channelId];
        channel.balance += amount;
        emit Deposited(channelId, config.payer, collector, amount, channel.balance);
    }

    // ---------------------------------------------------------------- claims and settlement

    /// @notice Claims vouchers, sent by the receiver or the receiver authorizer of every row.
    function claim(VoucherClaim[] calldata voucherClaims) external nonReentrant {
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            ChannelConfig calldata config = voucherClaims[i].voucher.channel;
            if (msg.sender != config.receiver && msg.sender != config.receiverAuthorizer) revert NotReceiverSide();
            _claim(voucherClaims[i], getChannelId(config));
        }
    }

    /// @notice Claims vouchers with one `ClaimBatch` signature of the receiver authorizer that every
    /// row shares; anyone may relay it.
    function claimWithSignature(VoucherClaim[] calldata voucherClaims, bytes calldata authorizerSignature)
        external
        nonReentrant
    {
        if (voucherClaims.length == 0) revert EmptyClaimBatch();
        address authorizer = voucherClaims[0].voucher.channel.receiverAuthorizer;
        (bytes32 digest, bytes32[] memory channelIds) = _claimBatch(voucherClaims);
        if (!_isValidSignatureNow(authorizer, digest, authorizerSignature)) revert InvalidAuthorizerSignature();
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            if (voucherClaims[i].voucher.channel.receiverAuthorizer != authorizer) revert AuthorizerMismatch();
            _claim(voucherClaims[i], channelIds[i]);
        }
    }

    /// @notice Transfers everything claimed for `receiver` in `token` and not yet settled; anyone may
    /// call it, the funds only ever go to the receiver. Nothing to settle is a no-op.
    function settle(address receiver, address token) external nonReentrant {
        ReceiverBalance storage totals = receivers[receiver][token];
        uint128 amount = totals.totalClaimed - totals.totalSettled;
        if (amount == 0) return;
        totals.totalSettled = totals.totalClaimed;
        _transfer(token, receiver, amount);
        emit Settled(receiver, token, msg.sender, amount);
    }

    // ---------------------------------------------------------------- refunds and withdrawals

    /// @notice Returns up to `amount` of the unclaimed balance to the payer, sent by the receiver side.
    function refund(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        if (msg.sender != config.receiver && msg.sender != config.receiverAuthorizer) revert NotReceiverSide();
        _refund(config, getChannelId(config), amount);
    }

    /// @notice The same refund, authorized by an EIP-712 `Refund` signature of the receiver
    /// authorizer for the channel's current refund nonce; anyone may relay it.
    function refundWithSignature(
        ChannelConfig calldata config,
        uint128 amount,
        uint256 nonce,
        bytes calldata receiverAuthorizerSignature
    ) external nonReentrant {
        bytes32 channelId = getChannelId(config);
        if (nonce != refundNonce[channelId]) revert InvalidRefundNonce();
        if (!_isValidSignatureNow(config.receiverAuthorizer, getRefundDigest(channelId, nonce, amount), receiverAuthorizerSignature)) {
            revert InvalidAuthorizerSignature();
        }
        _refund(config, channelId, amount);
    }

    /// @notice Starts the payer's timed exit for up to `amount` of the unclaimed balance; the
    /// receiver can still claim outstanding vouchers until the delay has passed.
    function initiateWithdraw(ChannelConfig calldata config, uint128 amount) external nonReentrant {
        _requirePayerSide(config);
        bytes32 channelId = getChannelId(config);
        ChannelBalance storage channel = channels[channelId];
        if (amount == 0 || amount > channel.balance - channel.totalClaimed) revert WithdrawAmountInvalid();
        pendingWithdrawals[channelId] = PendingWithdrawal({amount: amount, initiatedAt: uint40(block.timestamp)});
        emit WithdrawInitiated(channelId, amount, block.timestamp + config.withdrawDelay);
    }

    /// @notice Completes a timed exit once the channel's withdraw delay has passed, paying what is
    /// still unclaimed of the requested amount.
    function finalizeWithdraw(ChannelConfig calldata config) external nonReentrant {
        _requirePayerSide(config);
        bytes32 channelId = getChannelId(config);
        PendingWithdrawal memory pending = pendingWithdrawals[channelId];
        if (pending.initiatedAt == 0) revert NoPendingWithdrawal();
        if (block.timestamp < uint256(pending.initiatedAt) + config.withdrawDelay) revert WithdrawDelayNotElapsed();
        delete pendingWithdrawals[channelId];
        ChannelBalance storage channel = channels[channelId];
        uint128 unclaimed = channel.balance - channel.totalClaimed;
        uint128 amount = pending.amount < unclaimed ? pending.amount : unclaimed;
        if (amount == 0) return;
        channel.balance -= amount;
        _transfer(config.token, config.payer, amount);
        emit Withdrawn(channelId, config.payer, amount);
    }

    /// @notice Runs several calls of this contract in one transaction (the facilitator sends a claim
    /// and a refund together); any failure reverts them all.
    function multicall(bytes[] calldata data) external returns (bytes[] memory results) {
        results = new bytes[](data.length);
        for (uint256 i = 0; i < data.length; i++) {
            (bool success, bytes memory result) = address(this).delegatecall(data[i]);
            if (!success) {
                assembly {
                    revert(add(result, 0x20), mload(result))
                }
            }
            results[i] = result;
        }
    }

    // ---------------------------------------------------------------- EIP-712 views

    function getChannelId(ChannelConfig calldata config) public view returns (bytes32) {
        return _hashTyped(keccak256(abi.encode(CHANNEL_CONFIG_TYPEHASH, config)));
    }

    function getVoucherDigest(bytes32 channelId, uint128 maxClaimableAmount) public view returns (bytes32) {
        return _hashTyped(keccak256(abi.encode(VOUCHER_TYPEHASH, channelId, maxClaimableAmount)));
    }

    function getRefundDigest(bytes32 channelId, uint256 nonce, uint128 amount) public view returns (bytes32) {
        return _hashTyped(keccak256(abi.encode(REFUND_TYPEHASH, channelId, nonce, amount)));
    }

    function getClaimBatchDigest(VoucherClaim[] calldata voucherClaims) external view returns (bytes32 digest) {
        (digest,) = _claimBatch(voucherClaims);
    }

    function DOMAIN_SEPARATOR() public view returns (bytes32) {
        return keccak256(
            abi.encode(EIP712_DOMAIN_TYPEHASH, DOMAIN_NAME_HASH, DOMAIN_VERSION_HASH, block.chainid, address(this))
        );
    }

    // ---------------------------------------------------------------- internals

    /// @dev A row whose `totalClaimed` is not above what the channel already claimed changes nothing:
    /// a replayed or stale claim is harmless, and a batch that repeats one still lands the others.
    function _claim(VoucherClaim calldata voucherClaim, bytes32 channelId) private {
        ChannelConfig calldata config = voucherClaim.voucher.channel;
        uint128 ceiling = voucherClaim.voucher.maxClaimableAmount;
        uint128 newTotal = voucherClaim.totalClaimed;
        if (newTotal > ceiling) revert ClaimAboveVoucher();
        if (!_isValidVoucherSignature(config, getVoucherDigest(channelId, ceiling), voucherClaim.signature)) {
            revert InvalidVoucherSignature();
        }
        ChannelBalance storage channel = channels[channelId];
        if (newTotal <= channel.totalClaimed) return;
        if (newTotal > channel.balance) revert ClaimExceedsBalance();
        uint128 increase = newTotal - channel.totalClaimed;
        channel.totalClaimed = newTotal;
        receivers[config.receiver][config.token].totalClaimed += increase;
        emit Claimed(channelId, config.receiver, increase, newTotal);
    }

    /// @dev The refund nonce advances first, so a refund that finds nothing to return still spends
    /// its signature. A pending withdrawal shrinks by what was refunded (ends when covered).
    function _refund(ChannelConfig calldata config, bytes32 channelId, uint128 amount) private {
        uint256 nonce = refundNonce[channelId]++;
        ChannelBalance storage channel = channels[channelId];
        uint128 unclaimed = channel.balance - channel.totalClaimed;
        uint128 refunded = amount < unclaimed ? amount : unclaimed;
        if (refunded == 0) return;
        channel.balance -= refunded;
        PendingWithdrawal storage pending = pendingWithdrawals[channelId];
        if (pending.initiatedAt != 0) {
            if (refunded >= pending.amount) delete pendingWithdrawals[channelId];
            else pending.amount -= refunded;
        }
        _transfer(config.token, config.payer, refunded);
        emit Refunded(channelId, config.payer, refunded, nonce);
    }

    function _claimBatch(VoucherClaim[] calldata voucherClaims)
        private
        view
        returns (bytes32 digest, bytes32[] memory channelIds)
    {
        channelIds = new bytes32[](voucherClaims.length);
        bytes32[] memory entryHashes = new bytes32[](voucherClaims.length);
        for (uint256 i = 0; i < voucherClaims.length; i++) {
            channelIds[i] = getChannelId(voucherClaims[i].voucher.channel);
            entryHashes[i] = keccak256(
                abi.encode(
                    CLAIM_ENTRY_TYPEHASH,
                    channelIds[i],
                    voucherClaims[i].voucher.maxClaimableAmount,
                    voucherClaims[i].totalClaimed
                )
            );
        }
        digest = _hashTyped(keccak256(abi.encode(CLAIM_BATCH_TYPEHASH, keccak256(abi.encodePacked(entryHashes)))));
    }

    /// @dev A session key (payerAuthorizer) signs with plain ECDSA only; without one the payer
    /// signs, as an EOA or through ERC-1271.
    function _isValidVoucherSignature(ChannelConfig calldata config, bytes32 digest, bytes calldata signature)
        private
        view
        returns (bool)
    {
        if (config.payerAuthorizer != address(0)) {
            return _recover(digest, signature) == config.payerAuthorizer;
        }
        return _isValidSignatureNow(config.payer, digest, signature);
    }

    /// @dev ECDSA first (an EOA, also one with an EIP-7702 delegation), then ERC-1271 for a contract.
    function _isValidSignatureNow(address signer, bytes32 digest, bytes calldata signature)
        private
        view
        returns (bool)
    {
        if (signer == address(0)) return false;
        if (_recover(digest, signature) == signer) return true;
        if (signer.code.length == 0) return false;
        (bool success, bytes memory result) =
            signer.staticcall(abi.encodeWithSelector(ERC1271_MAGIC_VALUE, digest, signature));
        return success && result.length >= 32 && abi.decode(result, (bytes32)) == bytes32(ERC1271_MAGIC_VALUE);
    }

    /// @dev The signer of a 65-byte (r, s, v) signature, or zero for anything malformed or malleable.
    function _recover(bytes32 digest, bytes calldata signature) private pure returns (address) {
        if (signature.length != 65) return address(0);
        bytes32 r = bytes32(signature[0:32]);
        bytes32 s = bytes32(signature[32:64]);
        uint8 v = uint8(signature[64]);
        if (v < 27) v += 27;
        if (uint256(s) > SECP256K1_HALF_ORDER || (v != 27 && v != 28)) return address(0);
        return ecrecover(digest, v, r, s);
    }

    function _hashTyped(bytes32 structHash) private view returns (bytes32) {
        return keccak256(abi.encodePacked("\x19\x01", DOMAIN_SEPARATOR(), structHash));
    }

    function _requireValidConfig(ChannelConfig calldata config) private pure {
        if (
            config.payer == address(0) || config.receiver == address(0) || config.receiverAuthorizer == address(0)
                || config.token == address(0)
        ) revert InvalidChannelConfig();
        if (config.withdrawDelay < MIN_WITHDRAW_DELAY || config.withdrawDelay > MAX_WITHDRAW_DELAY) {
            revert WithdrawDelayOutOfRange();
        }
    }

    function _requirePayerSide(ChannelConfig calldata config) private view {
        if (msg.sender != config.payer && (config.payerAuthorizer == address(0) || msg.sender != config.payerAuthorizer))
        {
            revert NotPayerSide();
        }
    }

    function _balanceOf(address token) private view returns (uint256) {
        (bool success, bytes memory result) =
            token.staticcall(abi.encodeWithSignature("balanceOf(address)", address(this)));
        if (!success || result.length < 32) revert TokenTransferFailed();
        return abi.decode(result, (uint256));
    }

    /// @dev Accepts tokens that return `true` and tokens that return nothing; anything else reverts.
    function _transfer(address token, address to, uint256 amount) private {
        (bool success, bytes memory result) =
            token.call(abi.encodeWithSignature("transfer(address,uint256)", to, amount));
        if (!success || (result.length != 0 && !abi.decode(result, (bool)))) revert TokenTransferFailed();
    }
}
