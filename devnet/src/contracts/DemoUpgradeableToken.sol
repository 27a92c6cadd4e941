// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";

/// The implementation of an upgradeable ERC-20: it runs behind an ERC-1967 proxy (DemoProxy), so
/// its name and symbol are code, not constructor state, and `initialize` mints once through the
/// proxy (local demo world).
contract DemoUpgradeableToken is ERC20 {
    bool private initialized;

    constructor() ERC20("", "") {}

    function initialize(address holder, uint256 amount) external {
        require(!initialized, "initialized");
        initialized = true;
        _mint(holder, amount);
    }

    function name() public pure override returns (string memory) {
        return "Demo Upgradeable Token";
    }

    function symbol() public pure override returns (string memory) {
        return "DEMOUP";
    }
}
