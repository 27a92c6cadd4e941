// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {UUPSUpgradeable} from "@openzeppelin/contracts/proxy/utils/UUPSUpgradeable.sol";

/// The ERC-4337 v0.6 user operation (EntryPoint v0.6, which Coinbase Smart Wallet v1 uses).
struct UserOperation {
    address sender;
    uint256 nonce;
    bytes initCode;
    bytes callData;
    uint256 callGasLimit;
    uint256 verificationGasLimit;
    uint256 preVerificationGas;
    uint256 maxFeePerGas;
    uint256 maxPriorityFeePerGas;
    bytes paymasterAndData;
    bytes signature;
}

/// A Coinbase-Smart-Wallet-like account written against Coinbase Smart Wallet v1's published
/// interface, since no compiled Coinbase Smart Wallet is published on npm: `entryPoint()` answers
/// the canonical EntryPoint v0.6, owners are kept as bytes (`initialize(bytes[])`, `isOwnerAddress`,
/// `ownerAtIndex`, `addOwnerAddress`, `removeOwnerAtIndex`), signatures are wrapped as
/// `abi.encode(ownerIndex, signatureData)`, ERC-1271 `isValidSignature` checks a replay-safe
/// EIP-712 hash, and it is a UUPS implementation that runs behind an ERC-1967 proxy. Only
/// address owners (ECDSA) are accepted: passkey owners are Coinbase's and are not verified here.
/// Not Coinbase's code: it answers the same probes, so presend is tried on what such an account
/// answers. Written for the local demo world only.
contract DemoCoinbaseSmartWallet is UUPSUpgradeable {
    struct Call {
        address target;
        uint256 value;
        bytes data;
    }

    struct SignatureWrapper {
        uint256 ownerIndex;
        bytes signatureData;
    }

    address private constant ENTRY_POINT_V06 = 0x5FF137D4b0FDCD49DcA30c7CF57E578a026d2789;
    bytes32 private constant MESSAGE_TYPEHASH = keccak256("CoinbaseSmartWalletMessage(bytes32 hash)");
    bytes32 private constant DOMAIN_TYPEHASH =
        keccak256("EIP712Domain(string name,string version,uint256 chainId,address verifyingContract)");

    uint256 public nextOwnerIndex;
    uint256 public removedOwnersCount;
    mapping(uint256 => bytes) private owners;
    mapping(bytes => bool) private isOwner;

    event AddOwner(uint256 indexed index, bytes owner);
    event RemoveOwner(uint256 indexed index, bytes owner);

    /// The implementation itself can never be initialized: only proxies pointing at it can.
    constructor() {
        nextOwnerIndex = type(uint256).max;
    }

    receive() external payable {}

    modifier onlyEntryPoint() {
        require(msg.sender == ENTRY_POINT_V06, "only the EntryPoint");
        _;
    }

    modifier onlyOwner() {
        require(isOwner[abi.encode(msg.sender)] || msg.sender == address(this), "only an owner");
        _;
    }

    modifier onlyEntryPointOrOwner() {
        require(
            msg.sender == ENTRY_POINT_V06 || isOwner[abi.encode(msg.sender)] || msg.sender == address(this),
            "only the EntryPoint or an owner"
        );
        _;
    }

    function initialize(bytes[] calldata initialOwners) external payable {
        require(nextOwnerIndex == 0, "initialized");
        for (uint256 index = 0; index < initialOwners.length; index++) {
            _addOwner(initialOwners[index]);
        }
    }

    function entryPoint() external pure returns (address) {
        return ENTRY_POINT_V06;
    }

    function validateUserOp(UserOperation calldata userOp, bytes32 userOpHash, uint256 missingAccountFunds)
        external
        onlyEntryPoint
        returns (uint256 validationData)
    {
        validationData = _isValidSignature(userOpHash, userOp.signature) ? 0 : 1;
        if (missingAccountFunds > 0) {
            (bool paid,) = payable(msg.sender).call{value: missingAccountFunds}("");
            (paid);
        }
    }

    function execute(address target, uint256 value, bytes calldata data) external payable onlyEntryPointOrOwner {
        _call(target, value, data);
    }

    function executeBatch(Call[] calldata calls) external payable onlyEntryPointOrOwner {
        for (uint256 index = 0; index < calls.length; index++) {
            _call(calls[index].target, calls[index].value, calls[index].data);
        }
    }

    function isValidSignature(bytes32 hash, bytes calldata signature) external view returns (bytes4) {
        return _isValidSignature(replaySafeHash(hash), signature) ? bytes4(0x1626ba7e) : bytes4(0xffffffff);
    }

    /// The hash an owner signs for ERC-1271: bound to this account and chain, so a signature for
    /// one of the owner's accounts cannot be replayed on another.
    function replaySafeHash(bytes32 hash) public view returns (bytes32) {
        bytes32 domain = keccak256(
            abi.encode(
                DOMAIN_TYPEHASH, keccak256("Coinbase Smart Wallet"), keccak256("1"), block.chainid, address(this)
            )
        );
        return keccak256(abi.encodePacked("\x19\x01", domain, keccak256(abi.encode(MESSAGE_TYPEHASH, hash))));
    }

    function addOwnerAddress(address owner) external onlyOwner {
        _addOwner(abi.encode(owner));
    }

    function removeOwnerAtIndex(uint256 index, bytes calldata owner) external onlyOwner {
        require(keccak256(owners[index]) == keccak256(owner) && owner.length > 0, "wrong owner at index");
        require(ownerCount() > 1, "last owner");
        delete isOwner[owner];
        delete owners[index];
        removedOwnersCount++;
        emit RemoveOwner(index, owner);
    }

    function isOwnerAddress(address account) external view returns (bool) {
        return isOwner[abi.encode(account)];
    }

    function isOwnerBytes(bytes calldata account) external view returns (bool) {
        return isOwner[account];
    }

    function ownerAtIndex(uint256 index) external view returns (bytes memory) {
        return owners[index];
    }

    function ownerCount() public view returns (uint256) {
        return nextOwnerIndex - removedOwnersCount;
    }

    function _addOwner(bytes memory owner) private {
        require(owner.length == 32 && uint256(bytes32(owner)) <= type(uint160).max, "address owners only");
        require(!isOwner[owner], "already an owner");
        isOwner[owner] = true;
        owners[nextOwnerIndex] = owner;
        emit AddOwner(nextOwnerIndex, owner);
        nextOwnerIndex++;
    }

    function _isValidSignature(bytes32 hash, bytes calldata signature) private view returns (bool) {
        SignatureWrapper memory wrapper = abi.decode(signature, (SignatureWrapper));
        bytes memory owner = owners[wrapper.ownerIndex];
        if (owner.length != 32 || wrapper.signatureData.length != 65) return false;
        bytes memory data = wrapper.signatureData;
        bytes32 r;
        bytes32 s;
        uint8 v;
        assembly {
            r := mload(add(data, 32))
            s := mload(add(data, 64))
            v := byte(0, mload(add(data, 96)))
        }
        address signer = ecrecover(hash, v, r, s);
        return signer != address(0) && signer == abi.decode(owner, (address));
    }

    function _call(address target, uint256 value, bytes memory data) private {
        (bool ok, bytes memory result) = target.call{value: value}(data);
        if (!ok) {
            assembly {
                revert(add(result, 32), mload(result))
            }
        }
    }

    function _authorizeUpgrade(address) internal view override onlyOwner {}
}
