// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// An OpenZeppelin ERC-20 with a fixed supply minted to the deployer (local demo world).
contract DemoToken is ERC20 {
    constructor() ERC20("Demo Token", "DEMO") {
        _mint(msg.sender, 1_000_000 * 10 ** decimals());
    }
}
