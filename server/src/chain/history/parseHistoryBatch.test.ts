import { chains } from "@presend/shared/chains/chains";
import { getAddress, numberToHex, pad } from "viem";
import { describe, expect, it } from "vitest";
import { RpcWrongChainError } from "../errors";
import { historyBatchIds, transferTopic } from "./buildHistoryBatch";
import { parseHistoryBatch, parseInternalSends } from "./parseHistoryBatch";

const address = "0x9fB3Be896bE9E77d6f262503289f9bd1E0417Ad7";
const from = "0x1573EdD993C1AD2cf1f7ac3CEfe4Cbc0eE184C16";
const topic = (value: string) => pad(value.toLowerCase() as `0x${string}`, { size: 32 });
const options = { address, from, fromBlock: 10n, maxLogs: 3 } as const;

const log = (spec: { token?: string; value?: bigint; index?: number; data?: string } = {}) => ({
  address: (spec.token ?? chains.base.usdc.address).toLowerCase(),
  topics: [transferTopic, topic(from), topic(address)],
  data: spec.data ?? pad(numberToHex(spec.value ?? 0n), { size: 32 }),
  blockNumber: "0x20",
  blockTimestamp: "0x6b061015",
  transactionHash: `0x${"ab".repeat(32)}`,
  logIndex: numberToHex(spec.index ?? 0),
});

function answers(spec: { chainId?: string; from?: unknown; to?: unknown; ots?: unknown } = {}) {
  const entry = (id: number, value: unknown) =>
    value && typeof value === "object" && "error" in value
      ? { jsonrpc: "2.0", id, ...value }
      : { jsonrpc: "2.0", id, result: value };
  return [
    entry(historyBatchIds.chainId, spec.chainId ?? "0x2105"),
    entry(historyBatchIds.blockNumber, "0x30"),
    entry(historyBatchIds.transfersFrom, spec.from ?? [log({ value: 0n })]),
    entry(historyBatchIds.transfersTo, spec.to ?? []),
    entry(
      historyBatchIds.nativeSends,
      spec.ots ?? { txs: [], receipts: [], firstPage: true, lastPage: true },
    ),
  ].reverse();
}

describe("parseHistoryBatch", () => {
  it("decodes standard Transfer events of the read tokens, by id whatever the order", () => {
    const read = parseHistoryBatch("base", answers(), options);
    expect(read).toMatchObject({ status: "read", fromBlock: 10n, toBlock: 48n, head: 48n });
    if (read.status !== "read") throw new Error("unread");
    expect(read.transfers).toEqual([
      expect.objectContaining({
        token: "USDC",
        from: from.toLowerCase(),
        to: address.toLowerCase(),
        value: 0n,
        blockNumber: 32n,
        timestamp: 0x6b061015,
      }),
    ]);
    expect(read.native).toEqual({ status: "read", sends: [], transactionsRead: 0 });
  });

  it("skips events of other contracts and malformed data", () => {
    const read = parseHistoryBatch(
      "base",
      answers({
        from: [
          log({ token: "0x0000000000000000000000000000000000000001" }),
          log({ data: "0x01", index: 1 }),
        ],
      }),
      options,
    );
    expect(read.status === "read" && read.transfers).toEqual([]);
  });

  const refused = {
    error: { code: -32005, message: "range too large, see https://rpc.example/key=SECRET" },
  };
  const shown = (read: unknown) =>
    JSON.stringify(read, (_, value) => (typeof value === "bigint" ? String(value) : value));

  it("a refused range makes the history unknown, in words of our own (never the endpoint's text)", () => {
    const read = parseHistoryBatch("base", answers({ from: refused, to: refused }), options);
    expect(read).toMatchObject({
      status: "unknown",
      error: "the endpoint refused the log query (block range or result cap, code -32005)",
    });
    expect(shown(read)).not.toContain("SECRET");
  });

  it("more events than the cap makes the history unknown", () => {
    const many = [0, 1, 2, 3].map((index) => log({ index, value: 5n }));
    expect(parseHistoryBatch("base", answers({ from: many }), options)).toMatchObject({
      status: "unknown",
      error: "more than 3 transfers in the window, more than one check reads",
    });
  });

  // A poisoner's address gets thousands of planted transfers: the sender's own payments (all in
  // the first query) are still read whole, and only the address's own fingerprint is not.
  it("transfers to the checked address over the cap leave the sender's read, naming what was not", () => {
    const many = [0, 1, 2, 3].map((index) => log({ index, value: 0n }));
    const read = parseHistoryBatch("base", answers({ to: many }), options);
    expect(read).toMatchObject({
      status: "read",
      recipientError:
        "more than 3 transfers to this address in the window, more than one check reads",
    });
    if (read.status !== "read") throw new Error("unread");
    expect(read.transfers).toHaveLength(1);
  });

  it("transfers to the checked address refused by a result cap: the same, in words of our own", () => {
    const read = parseHistoryBatch("base", answers({ to: refused }), options);
    expect(read).toMatchObject({
      status: "read",
      recipientError: "the endpoint refused the log query (block range or result cap, code -32005)",
    });
    expect(shown(read)).not.toContain("SECRET");
  });

  it("without ots_ only the native sends are unknown", () => {
    const read = parseHistoryBatch(
      "base",
      answers({ ots: { error: { code: -32601, message: "Method not found" } } }),
      options,
    );
    expect(read.status).toBe("read");
    expect(read.native).toEqual({
      status: "unknown",
      error: "the endpoint has no Otterscan ots_ methods",
    });
  });

  it("an endpoint on another chain throws, so the next endpoint is tried", () => {
    expect(() => parseHistoryBatch("base", answers({ chainId: "0x1" }), options)).toThrow(
      RpcWrongChainError,
    );
  });
});

describe("transactions the sender took part in without signing (its internal calls)", () => {
  const hash = (byte: string) => `0x${byte.repeat(32)}`;
  const tx = (spec: {
    hash: string;
    from: string;
    to: string;
    input?: string;
    value?: string;
  }) => ({
    ...spec,
    input: spec.input ?? "0x",
    value: spec.value ?? "0x0",
    blockNumber: "0x21",
    blockTimestamp: "0x6b061015",
  });
  const bundler = "0x000000000000000000000000000000000000bEEF";
  const entryPoint = "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108";

  it("leaves out a deposit the sender signed to an EntryPoint: gas held there, not a payment", () => {
    const read = parseHistoryBatch(
      "base",
      answers({
        ots: {
          txs: [
            tx({ hash: hash("06"), from, to: entryPoint, input: "0xb760faf9", value: "0x9" }),
            tx({ hash: hash("07"), from, to: address, value: "0x7" }),
          ],
          receipts: [],
        },
      }),
      options,
    );
    expect(read.native).toMatchObject({
      status: "read",
      transactionsRead: 2,
      sends: [{ to: address, value: 7n }],
    });
  });

  it("names a bundler's or an owner's transaction, and a call to itself, but not a plain transfer in", () => {
    const read = parseHistoryBatch(
      "base",
      answers({
        ots: {
          txs: [
            tx({ hash: hash("01"), from: bundler, to: entryPoint, input: "0x765e827f" }),
            tx({ hash: hash("02"), from: bundler, to: from, input: "0x6a761202" }),
            tx({ hash: hash("03"), from: bundler, to: from, value: "0x5" }),
            tx({ hash: hash("04"), from, to: from, input: "0x34fcd5be" }),
            tx({ hash: hash("05"), from, to: address, value: "0x7" }),
          ],
          receipts: [],
        },
      }),
      options,
    );
    expect(read.inner.map((inner) => inner.hash)).toEqual([hash("01"), hash("02"), hash("04")]);
    expect(read.native).toMatchObject({
      status: "read",
      transactionsRead: 5,
      sends: [
        { to: from, value: 0n },
        { to: address, value: 7n },
      ],
    });
  });
});

describe("parseInternalSends", () => {
  const transaction = { hash: `0x${"01".repeat(32)}` as const, blockNumber: 33n, timestamp: 7 };
  const genuine = "0x1f30a5133722f7c98d331d679e690ccc1b0300e9";

  it("keeps the sender's non-zero plain transfers, at the transaction's block", () => {
    const sends = parseInternalSends(
      [
        {
          type: 3,
          from: "0x207f67c28a68522af8ccb63ac82aef4d127c6e90",
          to: from.toLowerCase(),
          value: "0x0",
        },
        { type: 0, from: from.toLowerCase(), to: genuine, value: "0x38d7ea4c68000" },
        { type: 0, from: from.toLowerCase(), to: genuine, value: "0x0" },
        { type: 0, from: genuine, to: from.toLowerCase(), value: "0x5" },
      ],
      from,
      transaction,
    );
    expect(sends).toEqual([
      {
        to: getAddress(genuine),
        value: 1_000_000_000_000_000n,
        blockNumber: 33n,
        timestamp: 7,
      },
    ]);
  });

  it("leaves out the prefund an EntryPoint takes: the account's own gas, paid to nobody", () => {
    const entryPoint07 = "0x0000000071727de22e5e9d8baf0edac6f37da032";
    const sends = parseInternalSends(
      [
        { type: 0, from: from.toLowerCase(), to: entryPoint07, value: "0x5af3107a4000" },
        { type: 0, from: from.toLowerCase(), to: genuine, value: "0x5" },
      ],
      from,
      transaction,
    );
    expect(sends.map((send) => send.to)).toEqual([getAddress(genuine)]);
  });

  it("a malformed answer throws (the history names the internal sends as not read)", () => {
    expect(() => parseInternalSends({ operations: [] }, from, transaction)).toThrow(
      "ots_getInternalOperations: not an array",
    );
  });
});

describe("parseHistoryBatch: a batch pinned to one block", () => {
  it("ends at the pinned block, and leaves out a log past it (a node ahead answered the logs)", () => {
    const later = { ...log({ value: 5n, index: 1 }), blockNumber: "0x29" };
    const read = parseHistoryBatch("base", answers({ from: [log({ value: 0n }), later] }), {
      ...options,
      toBlock: 0x28n,
    });
    expect(read).toMatchObject({ status: "read", toBlock: 0x28n });
    if (read.status !== "read") throw new Error("unread");
    expect(read.transfers.map((transfer) => transfer.blockNumber)).toEqual([32n]);
  });

  it("unpinned, a log past the answer's own head is left out too", () => {
    const ahead = { ...log({ value: 5n, index: 1 }), blockNumber: "0x31" };
    const read = parseHistoryBatch("base", answers({ from: [log(), ahead] }), options);
    if (read.status !== "read") throw new Error("unread");
    expect(read.toBlock).toBe(0x30n);
    expect(read.transfers).toHaveLength(1);
  });

  it("the answer's head below the pinned block: unknown, the node had not reached it", () => {
    const read = parseHistoryBatch("base", answers(), { ...options, toBlock: 0x40n });
    expect(read).toMatchObject({ status: "unknown", notReached: true });
    if (read.status !== "unknown") throw new Error("read");
    expect(read.error).toBe("the node answering had not reached block 64 (its head was 48)");
  });

  it.each([
    "header not found",
    "block range extends beyond current head block",
    "BlockOutOfRangeError: block height is 2 but requested was 9",
  ])("a log query answered %j: unknown, a node behind, not a refused range", (message) => {
    const read = parseHistoryBatch(
      "base",
      answers({ from: { error: { code: -32000, message } } }),
      { ...options, toBlock: 0x30n },
    );
    expect(read).toMatchObject({
      status: "unknown",
      error: "the node answering had not reached block 48",
      notReached: true,
    });
  });
});
