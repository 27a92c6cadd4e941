import { type AnvilInstance, devnetClient, startAnvil } from "@presend/devnet";
import { BaseError, ContractFunctionRevertedError, createPublicClient, parseAbi } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultMode, type FaultyRpc, startFaultyRpc } from "../payments/testing/startFaultyRpc";
import { freePort } from "./freePort";
import { keyHiddenFallbackTransport } from "./keyHiddenFallbackTransport";

const clientOf = (rpcUrls: string[]) =>
  createPublicClient({
    transport: keyHiddenFallbackTransport(rpcUrls, { timeoutMs: 500, retryCount: 0 }),
  });
// Code that reverts whatever it is asked: PUSH1 0 PUSH1 0 REVERT.
const reverting = "0x00000000000000000000000000000000000000aa" as const;
const probe = parseAbi(["function probe() view returns (uint256)"]);

describe("keyHiddenFallbackTransport (a real anvil chain behind fault-injecting proxies)", () => {
  let anvil: AnvilInstance;
  let first: FaultyRpc;
  let second: FaultyRpc;
  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 8453 });
    await devnetClient("base", anvil.rpcUrl).setCode({
      address: reverting,
      bytecode: "0x60006000fd",
    });
    first = await startFaultyRpc(anvil.rpcUrl);
    second = await startFaultyRpc(anvil.rpcUrl);
  });
  afterAll(async () => {
    await first?.close();
    await second?.close();
    await anvil?.stop();
  });

  it.each<FaultMode>(["hang", "garbage", "http429", "hugeBody"])(
    "reads through the second URL while the first is in mode %s",
    async (mode) => {
      first.mode = mode;
      try {
        const calls = second.calls.length;
        expect(await clientOf([first.url, second.url]).getChainId()).toBe(8453);
        expect(second.calls.slice(calls)).toEqual(["eth_chainId"]);
      } finally {
        first.mode = "pass";
      }
    },
  );

  it("asks the next URL at once when the first is rate-limited, retrying the whole list only when every URL failed", async () => {
    first.mode = "http429";
    try {
      const client = createPublicClient({
        transport: keyHiddenFallbackTransport([first.url, second.url], {
          timeoutMs: 500,
          retryCount: 1,
        }),
      });
      const started = Date.now();
      expect(await client.getChainId()).toBe(8453);
      // Not after the first provider's Retry-After (1 s).
      expect(Date.now() - started).toBeLessThan(900);
    } finally {
      first.mode = "pass";
    }
  });

  it("reads through the second URL while nothing listens at the first", async () => {
    const down = `http://127.0.0.1:${await freePort()}`;
    expect(await clientOf([down, second.url]).getBlockNumber()).toBeGreaterThanOrEqual(0n);
  });

  it("asks the first URL only while it answers", async () => {
    const calls = second.calls.length;
    expect(await clientOf([first.url, second.url]).getChainId()).toBe(8453);
    expect(second.calls.length).toBe(calls);
  });

  it("takes a revert as the answer it is: not asked of the next URL", async () => {
    const calls = second.calls.length;
    const error = await clientOf([first.url, second.url])
      .readContract({ address: reverting, abi: probe, functionName: "probe" })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(BaseError);
    expect(
      (error as BaseError).walk((cause) => cause instanceof ContractFunctionRevertedError),
    ).not.toBeNull();
    expect(first.calls).toContain("eth_call");
    expect(second.calls.length).toBe(calls);
  });

  it("starts each call at the URL that answered last: a hanging first URL costs its timeout once, not on every call", async () => {
    first.mode = "hang";
    const client = clientOf([first.url, second.url]);
    try {
      const started = Date.now();
      expect(await client.getChainId()).toBe(8453);
      // The first call waited out the first URL (500 ms) before the second answered.
      expect(Date.now() - started).toBeGreaterThanOrEqual(450);
      const askedFirst = first.calls.length;
      for (let call = 0; call < 5; call++) await client.getBlockNumber({ cacheTime: 0 });
      // Five more calls, none of them sent to the hanging URL.
      expect(first.calls.length).toBe(askedFirst);
    } finally {
      first.mode = "pass";
    }
    // The second URL now fails in its turn: the call wraps round to the first, which answers,
    // and the calls after it start there again.
    second.mode = "garbage";
    try {
      const askedFirst = first.calls.length;
      expect(await client.getBlockNumber({ cacheTime: 0 })).toBeGreaterThanOrEqual(0n);
      expect(first.calls.length).toBe(askedFirst + 1);
      const askedSecond = second.calls.length;
      await client.getBlockNumber({ cacheTime: 0 });
      expect(second.calls.length).toBe(askedSecond);
    } finally {
      second.mode = "pass";
    }
  });

  it("never names a provider's key in an error when every URL fails: a mainnet server logs these", async () => {
    const keyed = async () =>
      `http://127.0.0.1:${await freePort()}/v2/SECRET-KEY?apikey=SECRET-KEY`;
    const error = await clientOf([await keyed(), await keyed()])
      .getBlockNumber()
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    const text = `${String(error)} ${JSON.stringify(error)} ${(error as Error).stack}`;
    expect(text).toContain("127.0.0.1");
    expect(text).not.toContain("SECRET-KEY");
  });
});
