// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// @title DemoGuestbook
/// @notice A generic application contract: neither a token nor a wallet, and it cannot pass funds
/// on. It is the demo world's "contract that is not a known wallet kind" (verdict warn).
contract DemoGuestbook {
    struct Entry {
        address author;
        string message;
    }

    Entry[] private entries;

    event Signed(address indexed author, uint256 indexed index, string message);

    function sign(string calldata message) external returns (uint256 index) {
        index = entries.length;
        entries.push(Entry(msg.sender, message));
        emit Signed(msg.sender, index, message);
    }

    function entryCount() external view returns (uint256) {
        return entries.length;
    }

    function entry(uint256 index) external view returns (address author, string memory message) {
        Entry storage stored = entries[index];
        return (stored.author, stored.message);
    }
}
