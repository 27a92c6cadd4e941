import { type Address, getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { type HistoryRead, summarizeHistory, type TokenTransfer } from "./summarizeHistory";

const sender: Address = "0x1111111111111111111111111111111111111111";
const genuine = getAddress("0xabcd000000000000000000000000000000001234");
const lookalike: Address = "0xabcd999999999999999999999999999999991234";
const stranger: Address = "0x2222222222222222222222222222222222222222";

let next = 0;
function transfer(from: Address, to: Address, value: bigint, block = 10n): TokenTransfer {
  next++;
  return {
    id: `0x${next}:0`,
    token: "USDC",
    from,
    to,
    value,
    blockNumber: block,
    timestamp: 1_780_000_000 + Number(block),
  };
}

function read(
  transfers: TokenTransfer[],
  native: HistoryRead["native"] = { status: "not_asked" },
): HistoryRead {
  return {
    status: "read",
    tokens: ["USDC", "USDT"],
    fromBlock: 0n,
    toBlock: 99n,
    transfers,
    native,
  };
}

describe("summarizeHistory", () => {
  it("counts zero-value and dust transfers from the checked address to the sender, not real payments", () => {
    const history = summarizeHistory({
      recipient: lookalike,
      sender,
      read: read([
        transfer(lookalike, sender, 0n),
        transfer(lookalike, sender, 1_000n),
        transfer(lookalike, sender, 5_000_000n),
        transfer(lookalike, stranger, 1_000n),
      ]),
    });
    expect(history.sender?.dustFromRecipient).toBe(2);
  });

  it("keeps whether the ETH a smart account sent in internal calls was read", () => {
    const history = summarizeHistory({
      recipient: lookalike,
      sender,
      read: read([], {
        status: "read",
        transactionsRead: 4,
        sends: [{ to: genuine, value: 5n, blockNumber: 7n, timestamp: null }],
        internal: { status: "read", transactions: 3 },
      }),
    });
    expect(history.native).toEqual({
      status: "read",
      transactionsRead: 4,
      internal: { status: "read", transactions: 3 },
    });
    expect(history.sender?.lookalikes.map((entry) => entry.address)).toEqual([genuine]);
  });

  it("counts only non-zero payments, finds 4+4 lookalikes of them and the planted zero-value transfer", () => {
    const history = summarizeHistory({
      recipient: lookalike,
      sender,
      read: read([
        ...Array.from({ length: 6 }, (_, index) =>
          transfer(sender, genuine, 1_000_000n, BigInt(10 + index)),
        ),
        transfer(sender, lookalike, 0n, 40n),
        transfer(sender, stranger, 5_000_000n),
      ]),
    });
    expect(history.status).toBe("read");
    expect(history.sender?.counterparties).toBe(2);
    expect(history.sender?.paidRecipient).toBeNull();
    expect(history.sender?.zeroValueToRecipient).toBe(1);
    expect(history.sender?.lookalikes).toEqual([
      {
        address: genuine,
        payments: 6,
        lastPaidBlock: "15",
        lastPaidAt: new Date((1_780_000_000 + 15) * 1000).toISOString(),
      },
    ]);
    // The planted transfer is the recipient's only one: one counterparty, below any fingerprint.
    expect(history.recipient).toMatchObject({
      transfers: 1,
      zeroValueTransfers: 1,
      zeroOrDustCounterparties: 1,
    });
  });

  it("a paid lookalike that was planted too carries its zero-value transfers from the sender", () => {
    const history = summarizeHistory({
      recipient: genuine,
      sender,
      read: read([
        transfer(sender, genuine, 1_000_000n, 10n),
        transfer(sender, lookalike, 0n, 11n),
        transfer(sender, lookalike, 0n, 12n),
        transfer(sender, lookalike, 2_000_000n, 13n),
      ]),
    });
    expect(history.sender?.lookalikes).toMatchObject([
      { address: getAddress(lookalike), payments: 1, zeroValueFromSender: 2 },
    ]);
    expect(history.sender?.paidRecipient).not.toHaveProperty("zeroValueFromSender");
  });

  it("transfers to the checked address not read: the sender's payments whole, its own fingerprint null", () => {
    const history = summarizeHistory({
      recipient: lookalike,
      sender,
      read: {
        status: "read",
        tokens: ["USDC"],
        fromBlock: 0n,
        toBlock: 99n,
        transfers: [transfer(sender, genuine, 1_000_000n), transfer(sender, lookalike, 0n)],
        native: { status: "not_asked" },
        recipientError: "more than 5000 transfers to this address",
      },
    });
    expect(history).toMatchObject({
      status: "read",
      recipient: null,
      recipientError: "more than 5000 transfers to this address",
      sender: { zeroValueToRecipient: 1, lookalikes: [{ address: genuine, payments: 1 }] },
    });
  });

  it("the same event read by two queries counts once", () => {
    const paid = transfer(sender, genuine, 2_000_000n);
    const history = summarizeHistory({ recipient: genuine, sender, read: read([paid, paid]) });
    expect(history.sender?.paidRecipient?.payments).toBe(1);
    expect(history.sender?.lookalikes).toEqual([]);
  });

  it("native sends read through ots_ count as payments; a null block time stays null", () => {
    const history = summarizeHistory({
      recipient: genuine,
      sender,
      read: read([], {
        status: "read",
        transactionsRead: 3,
        sends: [
          { to: genuine, value: 5n, blockNumber: 7n, timestamp: null },
          { to: genuine, value: 0n, blockNumber: 8n, timestamp: null },
        ],
      }),
    });
    expect(history.native).toEqual({ status: "read", transactionsRead: 3 });
    expect(history.sender?.paidRecipient).toEqual({
      address: genuine,
      payments: 1,
      lastPaidAt: null,
      lastPaidBlock: "7",
    });
  });

  it("the recipient's fingerprint: zero-value and dust transfers with distinct addresses, and where it sweeps", () => {
    const victims = [1, 2, 3, 4, 5].map((digit) => `0x${String(digit).repeat(40)}` as Address);
    const collector: Address = "0x9999999999999999999999999999999999999999";
    const history = summarizeHistory({
      recipient: lookalike,
      sender: null,
      read: read([
        ...victims.map((victim) => transfer(victim, lookalike, 0n)),
        transfer(lookalike, victims[0] as Address, 1n),
        transfer(lookalike, collector, 50_000_000n),
        transfer(lookalike, collector, 70_000_000n),
      ]),
    });
    expect(history.sender).toBeNull();
    expect(history.recipient).toEqual({
      transfers: 8,
      zeroValueTransfers: 5,
      dustTransfers: 1,
      zeroOrDustCounterparties: 5,
      sentTo: [{ address: collector, transfers: 2 }],
    });
  });

  it("history that could not be read says why and carries no counts", () => {
    const history = summarizeHistory({
      recipient: genuine,
      sender,
      read: {
        status: "unknown",
        tokens: ["USDC"],
        error: "block range too large",
        native: { status: "unknown", error: "no ots_" },
      },
    });
    expect(history).toMatchObject({
      status: "unknown",
      error: "block range too large",
      sender: null,
      recipient: null,
      native: { status: "unknown" },
    });
  });
});

describe("summarizeHistory: a victim is not a poisoner", () => {
  it("zero-value transfers with lookalikes of its own counterparties do not count toward the fingerprint", () => {
    const lookalikes = ["1", "2", "3", "4"].map((digit) =>
      getAddress(`0xabcd${digit.repeat(32)}1234`),
    );
    const history = summarizeHistory({
      recipient: sender,
      sender: null,
      read: read([
        transfer(sender, genuine, 3_000_000n),
        ...lookalikes.map((lookalike) => transfer(sender, lookalike, 0n)),
      ]),
    });
    expect(history.recipient).toMatchObject({ zeroValueTransfers: 4, zeroOrDustCounterparties: 0 });
  });
});
