// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC1155} from "@openzeppelin/contracts/token/ERC1155/ERC1155.sol";

/// An OpenZeppelin ERC-1155 collection with one item type minted to the deployer (local demo world).
contract DemoMultiToken is ERC1155 {
    constructor() ERC1155("https://example.invalid/{id}.json") {
        _mint(msg.sender, 1, 100, "");
    }
}
