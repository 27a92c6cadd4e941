import { readFileSync } from "node:fs";
import { chains } from "@presend/shared/chains/chains";
import { erc20Abi, getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { devnetAccounts } from "./devnetAccounts";
import { devnetClient } from "./devnetClient";
import { demoAddressListFile, lookalikeOf, senderDemoRows, senderWorld } from "./senderWorld";
import { sharedWorld } from "./testing/sharedWorld";

const {
  poisoningVictim,
  genuineCounterparty,
  sprayedPoisoner,
  exchangeDeposit,
  exchangeCollector,
} = devnetAccounts;
const ends = (address: string) => `${address.slice(2, 6)}…${address.slice(-4)}`.toLowerCase();

describe("the sender-history demo rows", () => {
  it("lookalikes share the first 4 and last 4 hex characters with the genuine address, not the middle", () => {
    for (const lookalike of [senderWorld.freshLookalike, senderWorld.activeLookalike]) {
      expect(ends(lookalike)).toBe(ends(genuineCounterparty.address));
      expect(lookalike.toLowerCase()).not.toBe(genuineCounterparty.address.toLowerCase());
    }
    expect(lookalikeOf(genuineCounterparty.address, "fresh")).toBe(senderWorld.freshLookalike);
  });

  it("the demo list names the listed scam and the exchange collector of the world", () => {
    const entries = readFileSync(demoAddressListFile, "utf8")
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .map((line) => JSON.parse(line) as { address: string; category: string });
    expect(entries.map((entry) => [getAddress(entry.address), entry.category])).toEqual([
      [devnetAccounts.listedScam.address, "scam"],
      [exchangeCollector.address, "exchange-collector"],
    ]);
    expect(senderDemoRows.map((row) => row.label)).toContain("listed-scam");
  });

  it("the chain holds the history the rows promise (real transfers, real zero-value transferFrom)", async () => {
    const client = devnetClient("base", sharedWorld().chains.base.rpcUrl);
    const transfers = await client.getContractEvents({
      address: chains.base.usdc.address,
      abi: erc20Abi,
      eventName: "Transfer",
      fromBlock: 0n,
    });
    const between = (from: string, to: string) =>
      transfers.filter((log) => log.args.from === from && log.args.to === to);
    expect(between(poisoningVictim.address, genuineCounterparty.address)).toHaveLength(
      senderWorld.genuinePayments,
    );
    for (const lookalike of [senderWorld.freshLookalike, senderWorld.activeLookalike]) {
      expect(between(poisoningVictim.address, lookalike).map((log) => log.args.value)).toEqual([
        0n,
      ]);
    }
    for (const victim of senderWorld.sprayVictims) {
      expect(between(victim, sprayedPoisoner.address).map((log) => log.args.value)).toEqual([0n]);
    }
    expect(between(exchangeDeposit.address, exchangeCollector.address)).toHaveLength(1);
    expect(await client.getTransactionCount({ address: senderWorld.activeLookalike })).toBe(2);
    expect(await client.getTransactionCount({ address: senderWorld.freshLookalike })).toBe(0);
    expect(await client.getTransactionCount({ address: genuineCounterparty.address })).toBe(1);
  });
});
