// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

/// A payment contract that accepts native deposits only from one customer, checked with
/// `tx.origin`: a send from that customer's wallet is kept, anyone else's reverts. It shows that
/// the receive simulation sends as the real sender when presend is told who sends.
/// Written for the local demo world only.
contract DemoOriginGate {
    address public immutable customer;

    constructor(address customer_) {
        customer = customer_;
    }

    receive() external payable {
        require(tx.origin == customer, "unknown payer");
    }
}
