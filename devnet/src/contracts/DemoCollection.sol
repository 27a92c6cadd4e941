// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC721} from "@openzeppelin/contracts/token/ERC721/ERC721.sol";

/// An OpenZeppelin ERC-721 collection with one token minted to the deployer (local demo world).
contract DemoCollection is ERC721 {
    constructor() ERC721("Demo Collection", "DEMONFT") {
        _mint(msg.sender, 1);
    }
}
