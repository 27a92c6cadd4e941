// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";

/// The shape of an exchange's per-customer deposit address: every native deposit is passed on to
/// the exchange's collector on arrival, and the collector may sweep tokens left here.
/// Written for the local demo world only.
contract DemoDepositForwarder {
    address payable public immutable collector;

    constructor(address payable collector_) {
        collector = collector_;
    }

    receive() external payable {
        (bool sent,) = collector.call{value: msg.value}("");
        require(sent, "forward failed");
    }

    function sweep(IERC20 token) external {
        require(token.transfer(collector, token.balanceOf(address(this))), "sweep failed");
    }
}
