// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A vault that, like many bridges and games, takes native deposits only from wallets (EOAs):
/// the sender must be the transaction's origin and hold no code (the two common `onlyEOA`
/// guards). A simulation that sends through a contract is refused here; a real send is kept.
/// Written for the local demo world only.
contract DemoEoaOnlyVault {
    mapping(address => uint256) public deposits;

    receive() external payable {
        require(msg.sender == tx.origin, "only EOA: sender is not the origin");
        require(msg.sender.code.length == 0, "only EOA: sender has code");
        deposits[msg.sender] += msg.value;
    }
}
