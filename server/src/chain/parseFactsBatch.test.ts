import { chains } from "@presend/shared/chains/chains";
import {
  type Address,
  encodeAbiParameters,
  encodeFunctionData,
  erc20Abi,
  getAddress,
  type Hex,
  parseEther,
  toFunctionSelector,
} from "viem";
import { describe, expect, it } from "vitest";
import { buildFactsBatch, safeAbi } from "./buildFactsBatch";
import { RpcMalformedResponseError, RpcMethodError, RpcWrongChainError } from "./errors";
import { answerFactsBatch, type FakeCallResult, type FakeChainState } from "./fakeRpc";
import { parseFactsBatch } from "./parseFactsBatch";

const who: Address = "0x1111111111111111111111111111111111111111";
const delegate = "0x63c0c19a282a1b52b07dd5a65b58948a07dae32b";
const uint = (value: bigint): Hex => encodeAbiParameters([{ type: "uint256" }], [value]);
const ok = (returnData: Hex): FakeCallResult => ({ success: true, returnData });
const revert: FakeCallResult = { success: false, returnData: "0x" };
const selector = {
  threshold: toFunctionSelector("getThreshold()"),
  totalSupply: toFunctionSelector("totalSupply()"),
  decimals: toFunctionSelector("decimals()"),
};

function parse(chain: keyof typeof chains, state: Omit<FakeChainState, "chainId">, address = who) {
  const body = answerFactsBatch(buildFactsBatch(address, chain), {
    chainId: chains[chain].id,
    ...state,
  });
  return parseFactsBatch(chain, body);
}

/** Sub-call answers of a contract at `who` that implements the given functions. */
function contractAt(functions: Partial<Record<keyof typeof selector, FakeCallResult>>) {
  return (target: Address, callData: Hex) => {
    if (target.toLowerCase() !== who) return undefined;
    const name = (Object.keys(selector) as (keyof typeof selector)[]).find(
      (key) => selector[key] === callData.slice(0, 10),
    );
    // A contract without a matching function and without fallback reverts.
    return (name && functions[name]) ?? revert;
  };
}

describe("parseFactsBatch", () => {
  it("reads an EOA: nonce, native balance in the chain's symbol, gas costs, block number", () => {
    const facts = parse("base", {
      nonce: 7n,
      balance: parseEther("1.5"),
      gasPrice: 2_000_000_000n,
      blockNumber: 123_456n,
    });
    expect(facts).toEqual({
      name: "base",
      chainId: 8453,
      status: "ok",
      isContract: false,
      kind: "eoa",
      kindLabel: "wallet (EOA)",
      outgoingTxs: 7,
      native: { raw: "1500000000000000000", decimals: 18, formatted: "1.5", symbol: "ETH" },
      usdc: { raw: "0", decimals: 6, formatted: "0", symbol: "USDC" },
      usdt: { raw: "0", decimals: 6, formatted: "0", symbol: "USDT" },
      usdcBridged: { raw: "0", decimals: 6, formatted: "0", symbol: "USDbC" },
      gas: {
        gasPriceWei: "2000000000",
        nativeTransferCost: {
          raw: "42000000000000",
          decimals: 18,
          formatted: "0.000042",
          symbol: "ETH",
        },
        tokenTransferCost: {
          raw: "130000000000000",
          decimals: 18,
          formatted: "0.00013",
          symbol: "ETH",
        },
      },
      blockNumber: "123456",
    });
  });

  it("uses POL on polygon and has no bridged USDC key on ethereum", () => {
    expect(parse("polygon", { balance: 10n ** 18n }).native?.symbol).toBe("POL");
    expect(parse("ethereum", {})).not.toHaveProperty("usdcBridged");
  });

  it("classifies 0xef0100 || delegate as an EIP-7702 delegated EOA with the EIP-55 delegate", () => {
    const facts = parse("base", { code: `0xef0100${delegate.slice(2)}`, nonce: 2n });
    expect(facts).toMatchObject({
      isContract: false,
      kind: "eip7702-delegated",
      delegate: getAddress(delegate),
      outgoingTxs: 2,
    });
  });

  it("does not take a longer code that starts with 0xef0100 for a delegation", () => {
    const facts = parse("base", { code: `0xef0100${delegate.slice(2)}00` });
    expect(facts).toMatchObject({ isContract: true, kind: "contract" });
    expect(facts.delegate).toBeUndefined();
  });

  it("classifies a contract with getThreshold() > 0 as a safe", () => {
    const facts = parse("arbitrum", {
      code: "0x6080",
      call: contractAt({ threshold: ok(uint(2n)) }),
    });
    expect(facts).toMatchObject({ isContract: true, kind: "safe" });
  });

  it("does not call a threshold of 0 or a short answer a safe", () => {
    const zero = parse("base", { code: "0x6080", call: contractAt({ threshold: ok(uint(0n)) }) });
    const short = parse("base", { code: "0x6080", call: contractAt({ threshold: ok("0x02") }) });
    expect([zero.kind, short.kind]).toEqual(["contract", "contract"]);
  });

  it("classifies a contract answering totalSupply() and decimals() as a token", () => {
    const facts = parse("optimism", {
      code: "0x6080",
      call: contractAt({ totalSupply: ok(uint(10n ** 24n)), decimals: ok(uint(18n)) }),
    });
    expect(facts).toMatchObject({ isContract: true, kind: "token" });
  });

  it("needs both ERC-20 probes, and a uint8 decimals, to call it a token", () => {
    const noDecimals = parse("base", {
      code: "0x6080",
      call: contractAt({ totalSupply: ok(uint(1n)) }),
    });
    const hugeDecimals = parse("base", {
      code: "0x6080",
      call: contractAt({ totalSupply: ok(uint(1n)), decimals: ok(uint(256n)) }),
    });
    expect([noDecimals.kind, hugeDecimals.kind]).toEqual(["contract", "contract"]);
  });

  it("classifies a contract that reverts every probe as a generic contract", () => {
    expect(parse("base", { code: "0x6080", call: contractAt({}) }).kind).toBe("contract");
  });

  it("decodes stablecoin balances: held, missing token contract = 0, revert = unknown", () => {
    const base = chains.base;
    const balanceOf = encodeFunctionData({ abi: erc20Abi, functionName: "balanceOf", args: [who] });
    const facts = parse("base", {
      call: (target, callData) => {
        if (callData !== balanceOf) return undefined;
        if (target === base.usdc.address) return ok(uint(12_500_000n));
        if (target === base.usdt.address) return ok("0x");
        if (target === base.usdcBridged?.address) return revert;
        return undefined;
      },
    });
    expect(facts.usdc).toEqual({ raw: "12500000", decimals: 6, formatted: "12.5", symbol: "USDC" });
    expect(facts.usdt).toEqual({ raw: "0", decimals: 6, formatted: "0", symbol: "USDT" });
    expect(facts.usdcBridged).toBeNull();
    expect(facts.kind).toBe("eoa");
  });

  it("rejects an answer that is not a batch, with the provider's batch-level error named", () => {
    expect(() => parseFactsBatch("base", { hello: 1 })).toThrow(RpcMalformedResponseError);
    expect(() =>
      parseFactsBatch("base", {
        jsonrpc: "2.0",
        id: null,
        error: { code: -32600, message: "batch too large" },
      }),
    ).toThrow(/batch failed: -32600 batch too large/);
  });

  it("rejects a batch with an error entry, a missing entry or the wrong chain", () => {
    const batch = buildFactsBatch(who, "base");
    const good = answerFactsBatch(batch, { chainId: 8453 }) as { id: number }[];
    const withError = good.map((entry) =>
      entry.id === 3
        ? { jsonrpc: "2.0", id: 3, error: { code: -32005, message: "rate limited" } }
        : entry,
    );
    expect(() => parseFactsBatch("base", withError)).toThrow(RpcMethodError);
    expect(() => parseFactsBatch("base", withError)).toThrow(/eth_getTransactionCount/);
    expect(() => parseFactsBatch("base", good.slice(1))).toThrow(/eth_chainId result/);
    const wrongChain = answerFactsBatch(batch, { chainId: 1 });
    expect(() => parseFactsBatch("base", wrongChain)).toThrow(RpcWrongChainError);
  });

  it("accepts answers in any order", () => {
    const batch = buildFactsBatch(who, "base");
    const reversed = answerFactsBatch(batch, { chainId: 8453, nonce: 4n }).reverse();
    expect(parseFactsBatch("base", reversed).outgoingTxs).toBe(4);
  });

  it("rejects an empty eth_call answer (no Multicall3 on that endpoint)", () => {
    const batch = buildFactsBatch(who, "base");
    const answer = answerFactsBatch(batch, { chainId: 8453 }) as { id: number }[];
    const empty = answer.map((entry) =>
      entry.id === 7 ? { jsonrpc: "2.0", id: 7, result: "0x" } : entry,
    );
    expect(() => parseFactsBatch("base", empty)).toThrow(/Multicall3 not deployed/);
  });

  it("keeps the threshold probe ABI a view of a uint256", () => {
    expect(safeAbi[0].outputs[0]?.type).toBe("uint256");
  });
});
