// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title DemoSafeLookalike
/// @notice Not a Safe: a contract anyone can write that answers the calls a Safe proxy answers
/// (`getOwners`, `getThreshold`, `nonce`, and `masterCopy` naming a real Safe singleton of the
/// deployer's choice), while its own code is no Safe proxy and no Safe factory can ever make it.
/// Whoever deploys it keeps what it receives. Written for the local world's tests only.
contract DemoSafeLookalike {
    address private immutable singleton;
    address private immutable keeper;
    address[] private owners;

    constructor(address claimedSingleton, address[] memory claimedOwners) {
        singleton = claimedSingleton;
        keeper = msg.sender;
        owners = claimedOwners;
    }

    receive() external payable {}

    function masterCopy() external view returns (address) {
        return singleton;
    }

    function getOwners() external view returns (address[] memory) {
        return owners;
    }

    function getThreshold() external pure returns (uint256) {
        return 1;
    }

    function nonce() external pure returns (uint256) {
        return 3;
    }

    /// Only the deployer moves what it holds, whatever the owners it names.
    function sweep(address payable to) external {
        require(msg.sender == keeper, "DemoSafeLookalike: not the keeper");
        to.transfer(address(this).balance);
    }
}
