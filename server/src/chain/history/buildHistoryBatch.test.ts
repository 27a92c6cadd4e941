import { chains } from "@presend/shared/chains/chains";
import { pad } from "viem";
import { describe, expect, it } from "vitest";
import { buildFactsBatch, maxBatchEntries } from "../buildFactsBatch";
import {
  buildHistoryBatch,
  buildHistoryCompanion,
  companionIdOffset,
  transferTopic,
} from "./buildHistoryBatch";

const address = "0x9fB3Be896bE9E77d6f262503289f9bd1E0417Ad7";
const from = "0x1573EdD993C1AD2cf1f7ac3CEfe4Cbc0eE184C16";
const topic = (value: string) => pad(value.toLowerCase() as `0x${string}`, { size: 32 });

describe("buildHistoryBatch", () => {
  it("with a sender: two topic-filtered log queries on the stablecoins and the sender's native sends", () => {
    const batch = buildHistoryBatch({ address, from, chain: "base", fromBlock: 1000n });
    expect(batch.length).toBeLessThanOrEqual(maxBatchEntries);
    expect(batch.map((entry) => entry.method)).toEqual([
      "eth_chainId",
      "eth_blockNumber",
      "eth_getLogs",
      "eth_getLogs",
      "ots_searchTransactionsBefore",
    ]);
    const tokens = [
      chains.base.usdc.address,
      chains.base.usdt.address,
      chains.base.usdcBridged?.address,
    ];
    expect(batch[2]?.params[0]).toEqual({
      address: tokens,
      fromBlock: "0x3e8",
      toBlock: "latest",
      topics: [transferTopic, [topic(from), topic(address)]],
    });
    expect(batch[3]?.params[0]).toEqual({
      address: tokens,
      fromBlock: "0x3e8",
      toBlock: "latest",
      topics: [transferTopic, null, [topic(address)]],
    });
    expect(batch[4]?.params).toEqual([from, 0, 25]);
  });

  it("without a sender: only the checked address's transfers", () => {
    const batch = buildHistoryBatch({ address, from: null, chain: "ethereum", fromBlock: 0n });
    expect(batch.map((entry) => entry.method)).not.toContain("ots_searchTransactionsBefore");
    expect(batch[2]?.params[0]).toMatchObject({
      address: [chains.ethereum.usdc.address, chains.ethereum.usdt.address],
      topics: [transferTopic, [topic(address)]],
    });
  });

  it("rides in the facts batch: the log queries and native sends, ids past the facts', at most 10 in all", () => {
    const companion = buildHistoryCompanion({ address, from, chain: "base", fromBlock: 1000n });
    const alone = buildHistoryBatch({ address, from, chain: "base", fromBlock: 1000n });
    expect(companion).toEqual(
      alone.slice(2).map((entry) => ({ ...entry, id: entry.id + companionIdOffset })),
    );
    const shared = [...buildFactsBatch(address, "base", { sender: from }), ...companion];
    expect(shared.length).toBeLessThanOrEqual(maxBatchEntries);
    expect(new Set(shared.map((entry) => entry.id)).size).toBe(shared.length);
  });
});
