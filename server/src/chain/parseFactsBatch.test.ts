import { publishedArtifacts } from "@presend/devnet";
import { chains, gasPriceOracleAddress } from "@presend/shared/chains/chains";
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
import { buildFactsBatch, eip1967ImplementationSlot } from "./buildFactsBatch";
import {
  RpcBlockNotReachedError,
  RpcMalformedResponseError,
  RpcMethodError,
  RpcWrongChainError,
} from "./errors";
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
  owners: toFunctionSelector("getOwners()"),
  safeNonce: toFunctionSelector("nonce()"),
  entryPoint: toFunctionSelector("entryPoint()"),
  entrypoint: toFunctionSelector("entrypoint()"),
  accountId: toFunctionSelector("accountId()"),
  isValidSignature: toFunctionSelector("isValidSignature(bytes32,bytes)"),
  supportsInterface: toFunctionSelector("supportsInterface(bytes4)"),
  proxiableUUID: toFunctionSelector("proxiableUUID()"),
};

function parse(chain: keyof typeof chains, state: Omit<FakeChainState, "chainId">, address = who) {
  const body = answerFactsBatch(buildFactsBatch(address, chain), {
    chainId: chains[chain].id,
    ...state,
  });
  return parseFactsBatch(chain, body, address);
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
      l1Fee: 3_000_000_000_000n,
    });
    expect(facts).toEqual({
      name: "base",
      chainId: 8453,
      status: "ok",
      isContract: false,
      kind: "eoa",
      kindLabel: "wallet (EOA)",
      outgoingTxs: 7,
      accountNonce: 7,
      receiveSimulation: { outcome: "kept", amountWei: "1000000000000" },
      native: { raw: "1500000000000000000", decimals: 18, formatted: "1.5", symbol: "ETH" },
      usdc: { raw: "0", decimals: 6, formatted: "0", symbol: "USDC" },
      usdt: { raw: "0", decimals: 6, formatted: "0", symbol: "USDT" },
      usdcBridged: { raw: "0", decimals: 6, formatted: "0", symbol: "USDbC" },
      gas: {
        gasPriceWei: "2000000000",
        nativeTransferGas: "21000",
        // gas x price plus the L1 data fee Base's GasPriceOracle prices each send at.
        nativeTransferCost: {
          raw: "45000000000000",
          decimals: 18,
          formatted: "0.000045",
          symbol: "ETH",
        },
        tokenTransferCost: {
          raw: "133000000000000",
          decimals: 18,
          formatted: "0.000133",
          symbol: "ETH",
        },
        l1DataFee: {
          nativeTransfer: {
            raw: "3000000000000",
            decimals: 18,
            formatted: "0.000003",
            symbol: "ETH",
          },
          tokenTransfer: {
            raw: "3000000000000",
            decimals: 18,
            formatted: "0.000003",
            symbol: "ETH",
          },
        },
      },
      blockNumber: "123456",
    });
  });

  it("an OP-stack chain without an answering GasPriceOracle: the costs leave the L1 data fee out and it is unknown", () => {
    const facts = parse("optimism", { gasPrice: 1_000_000_000n, l1Fee: null });
    expect(facts.gas?.l1DataFee).toBeNull();
    expect(facts.gas?.nativeTransferCost.raw).toBe("21000000000000");
    expect(facts.unknowns).toEqual(["the L1 data fee"]);
    // An oracle whose getL1Fee reverts tells no more.
    const reverted = parse("base", {
      call: (target) => (target === gasPriceOracleAddress ? revert : undefined),
    });
    expect([reverted.gas?.l1DataFee, reverted.unknowns]).toEqual([null, ["the L1 data fee"]]);
  });

  it("no L1 data fee key where the chain is not OP-stack", () => {
    const facts = parse("arbitrum", { gasPrice: 1_000_000_000n, l1Fee: 5n });
    expect(facts.gas).not.toHaveProperty("l1DataFee");
    expect(facts.gas?.nativeTransferCost.raw).toBe("21000000000000");
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

  it("keeps the balances of a contract whose probes ran out of gas, and names what is unknown", () => {
    const facts = parse("base", {
      code: "0x6080",
      balance: parseEther("2"),
      probesRunOutOfGas: true,
      // Were the probes answered, this would be a token.
      call: contractAt({ totalSupply: ok(uint(1n)), decimals: ok(uint(18n)) }),
    });
    expect(facts).toMatchObject({ status: "ok", kind: "contract", isContract: true });
    expect(facts.native?.formatted).toBe("2");
    expect(facts.unknowns).toEqual(["what the contract is (every call to it ran out of gas)"]);
    // An EOA's probes never fail: an EIP-7702 account is judged by its delegate and simulation.
    const delegated = parse("base", {
      code: `0xef0100${delegate.slice(2)}`,
      probesRunOutOfGas: true,
    });
    expect(delegated.kind).toBe("eip7702-delegated");
    expect(delegated.unknowns).toBeUndefined();
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
    expect(() => parseFactsBatch("base", { hello: 1 }, who)).toThrow(RpcMalformedResponseError);
    expect(() =>
      parseFactsBatch(
        "base",
        {
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: "batch too large" },
        },
        who,
      ),
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
    expect(() => parseFactsBatch("base", withError, who)).toThrow(RpcMethodError);
    expect(() => parseFactsBatch("base", withError, who)).toThrow(/eth_getTransactionCount/);
    expect(() => parseFactsBatch("base", good.slice(1), who)).toThrow(/eth_getCode result/);
    const wrongChain = answerFactsBatch(batch, { chainId: 1 });
    expect(() => parseFactsBatch("base", wrongChain, who)).toThrow(RpcWrongChainError);
  });

  it("accepts answers in any order", () => {
    const batch = buildFactsBatch(who, "base");
    const reversed = answerFactsBatch(batch, { chainId: 8453, nonce: 4n }).reverse();
    expect(parseFactsBatch("base", reversed, who).outgoingTxs).toBe(4);
  });

  it("rejects an empty eth_call answer (no Multicall3 on that endpoint)", () => {
    const batch = buildFactsBatch(who, "base");
    const answer = answerFactsBatch(batch, { chainId: 8453 }) as { id: number }[];
    const empty = answer.map((entry) =>
      entry.id === 7 ? { jsonrpc: "2.0", id: 7, result: "0x" } : entry,
    );
    expect(() => parseFactsBatch("base", empty, who)).toThrow(/Multicall3 not deployed/);
  });

  it("reads the receive simulation: kept, rejected, forwarded; an endpoint without eth_simulateV1 leaves it unavailable", () => {
    const outcome = (receive: FakeChainState["receive"]) =>
      parse("base", { receive }).receiveSimulation?.outcome;
    expect([outcome("kept"), outcome("rejected"), outcome("forwarded")]).toEqual([
      "kept",
      "rejected",
      "forwarded",
    ]);
    const refused = parse("base", { receive: "refused", nonce: 3n });
    expect(refused.receiveSimulation).toMatchObject({ outcome: "unavailable" });
    expect(refused.receiveSimulation?.error).toMatch(/eth_simulateV1/);
    // Nothing else fails: the rest of the batch stands.
    expect(refused).toMatchObject({ status: "ok", kind: "eoa", outgoingTxs: 3 });
  });

  it("prices a native send with the gas the simulated one used: code that runs on receipt costs more than 21000", () => {
    const sendGas = (state: Omit<FakeChainState, "chainId">) => {
      const { gas } = parse("base", { gasPrice: 1_000_000_000n, ...state });
      return [gas?.nativeTransferGas, gas?.nativeTransferCost.raw];
    };
    // A Safe 1.4.1's receive: 27,329 gas on the local chain, as the real send's receipt says.
    expect(sendGas({ code: "0x6080", receiveGas: 27_329n })).toEqual(["27329", "27329000000000"]);
    expect(sendGas({ code: "0x6080", receive: "forwarded", receiveGas: 30_485n })).toEqual([
      "30485",
      "30485000000000",
    ]);
    // A plain transfer, a send that fails, a node that does not say, no simulation: 21000.
    for (const state of [
      {},
      { code: "0x6080" as Hex, receive: "rejected" as const, receiveGas: 40_000n },
      { code: "0x6080" as Hex, receiveGas: null },
      { code: "0x6080" as Hex, receive: "refused" as const },
    ]) {
      expect(sendGas(state)).toEqual(["21000", "21000000000000"]);
    }
  });

  it("names the one address a forwarded deposit went to, from the node's transfer trace", () => {
    const collector = "0x00000000000000000000000000000000C0FFEE00";
    const traced = parse("base", { code: "0x6080", receive: "forwarded", forwardTo: collector });
    expect(traced.receiveSimulation).toEqual({
      outcome: "forwarded",
      amountWei: "1000000000000",
      forwardedTo: getAddress(collector),
    });
    // Without a trace (a node that ignores traceTransfers) it is forwarded, destination unnamed.
    const untraced = parse("base", { code: "0x6080", receive: "forwarded" });
    expect(untraced.receiveSimulation).toEqual({
      outcome: "forwarded",
      amountWei: "1000000000000",
    });
  });

  it("names the implementation slot as unknown when eth_getStorageAt fails, and only that", () => {
    const facts = parse("base", { code: "0x6080", failing: ["eth_getStorageAt"] });
    expect(facts).toMatchObject({ kind: "contract", unknowns: ["the proxy implementation slot"] });
  });

  it("judges a 7702 delegate by address, then by runtime code hash, else unknown", () => {
    const simple7702CodeHash = "0xcc7b633aef4b2543cb8f37522adf1a401f910f0f6b2430c1eecc11f401ccfcf3";
    const metamask = parse("base", { code: `0xef0100${delegate.slice(2)}`, nonce: 2n });
    expect(metamask.kindLabel).toBe("MetaMask smart account (EIP-7702)");
    expect(metamask.delegateAssessment).toMatchObject({ category: "wallet", matchedBy: "address" });
    const copy = parse("base", {
      code: `0xef0100${"12".repeat(20)}`,
      delegateCodeHash: simple7702CodeHash,
    });
    expect(copy.delegateAssessment).toMatchObject({ category: "wallet", matchedBy: "codeHash" });
    const sweeper = parse("base", {
      code: "0xef010047c74dfd54b2bf7362e5976d748aad24c4f1f36d",
    });
    expect(sweeper.delegateAssessment).toMatchObject({ category: "sweeper", label: "Crime" });
    const unknown = parse("base", {
      code: `0xef0100${"34".repeat(20)}`,
      delegateCodeHash: `0x${"ab".repeat(32)}`,
    });
    expect(unknown.kindLabel).toBe("EIP-7702 account delegating to an unknown contract");
    expect(unknown.delegateAssessment).toMatchObject({ category: "unknown", matchedBy: null });
  });

  it("classifies a Safe by threshold and owners, counting its own nonce()", () => {
    const owners = encodeAbiParameters([{ type: "address[]" }], [[who, delegate]]);
    const facts = parse("base", {
      code: "0x6080",
      nonce: 1n,
      call: contractAt({ threshold: ok(uint(1n)), owners: ok(owners), safeNonce: ok(uint(0n)) }),
    });
    expect(facts).toMatchObject({
      kind: "safe",
      kindLabel: "Safe (2 owners, threshold 1)",
      outgoingTxs: 0,
      accountNonce: 1,
    });
  });

  it("classifies an ERC-4337 account by entryPoint(), counting the EntryPoint's getNonce", () => {
    const v08 = "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108";
    const facts = parse("base", {
      code: "0x6080",
      nonce: 1n,
      call: (target, callData) => {
        if (target.toLowerCase() === who && callData === selector.entryPoint)
          return ok(encodeAbiParameters([{ type: "address" }], [v08]));
        if (target === v08) return ok(uint(3n));
        return contractAt({})(target, callData);
      },
    });
    expect(facts).toMatchObject({
      kind: "smart-account",
      kindLabel: "ERC-4337 smart account",
      entryPoint: v08,
      outgoingTxs: 3,
    });
  });

  it("recognises a Kernel-style ERC-7579 account by entrypoint() in lower case, counting every EntryPoint", () => {
    const v07 = "0x0000000071727De22E5E9d8BAf0edAc6f37da032";
    const v08 = "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108";
    const kernel = (nonces: Record<string, bigint>) =>
      parse("base", {
        code: "0x6080",
        nonce: 1n,
        call: (target, callData) => {
          const nonce = nonces[target.toLowerCase()];
          if (nonce !== undefined) return ok(uint(nonce));
          return contractAt({
            entrypoint: ok(encodeAbiParameters([{ type: "address" }], [v07])),
            accountId: ok(encodeAbiParameters([{ type: "string" }], ["kernel.advanced.v0.3.1"])),
          })(target, callData);
        },
      });
    // Used through v0.7 (one UserOperation) and v0.8 (two): three of its own.
    const used = kernel({ [v07.toLowerCase()]: 1n, [v08.toLowerCase()]: 2n });
    expect(used).toMatchObject({
      kind: "smart-account",
      kindLabel: "ERC-7579 smart account (kernel.advanced.v0.3.1)",
      entryPoint: v07,
      outgoingTxs: 3,
    });
    expect(used.unknowns).toBeUndefined();
    // Fresh: it answers a known EntryPoint, which counts nothing for it: unused, not unknown.
    const fresh = kernel({ [v07.toLowerCase()]: 0n });
    expect(fresh).toMatchObject({ kind: "smart-account", outgoingTxs: 0 });
    expect(fresh.unknowns).toBeUndefined();
  });

  it("recognises a contract wallet by its ERC-1271 answer, its activity unknown without an EntryPoint", () => {
    const failureValue = `0xffffffff${"0".repeat(56)}` as Hex;
    const wallet = parse("base", {
      code: "0x6080",
      call: contractAt({ isValidSignature: ok(failureValue) }),
    });
    expect(wallet).toMatchObject({ kind: "smart-account", kindLabel: "smart account (ERC-1271)" });
    expect(wallet.outgoingTxs).toBeNull();
    expect(wallet.unknowns).toEqual(["the account's outgoing activity (no known EntryPoint)"]);
    // Any other word is not an ERC-1271 answer.
    const other = parse("base", {
      code: "0x6080",
      call: contractAt({ isValidSignature: ok(uint(1n)) }),
    });
    expect(other.kind).toBe("contract");
  });

  it("names a registry protocol contract in its label", () => {
    const permit2 = "0x000000000022D473030F116dDEE9F6B43aC78BA3";
    const facts = parse("base", { code: "0x6080", call: () => revert }, permit2);
    expect(facts).toMatchObject({ kind: "contract", kindLabel: "Permit2 (Uniswap)" });
  });

  it("classifies an ERC-721 collection by ERC-165 and names a listed token", () => {
    const nft = parse("base", {
      code: "0x6080",
      call: contractAt({ supportsInterface: ok(uint(1n)) }),
    });
    expect(nft).toMatchObject({ kind: "nft", token: { standard: "erc721" } });
    const usdc = parse("base", { code: "0x6080", call: contractAt({}) }, chains.base.usdc.address);
    expect(usdc).toMatchObject({ kind: "token", kindLabel: "ERC-20 token contract (USDC)" });
  });
});

describe("parseFactsBatch: wallet software's own contract", () => {
  const v08 = "0x4337084D9E255Ff0702461CF8895CE9E3b5Ff108";
  /**
   * An account on the EntryPoint v0.8 with `userOperations` of its own, and what it answers to
   * proxiableUUID(): a UUPS implementation called as itself answers the ERC-1967 slot; through
   * a proxy the call reverts.
   */
  const account = (proxiableUUID: FakeCallResult, userOperations = 0n) =>
    parse("base", {
      code: "0x6080",
      nonce: 1n,
      call: (target, callData) => {
        if (target === v08) return ok(uint(userOperations));
        return contractAt({
          entryPoint: ok(encodeAbiParameters([{ type: "address" }], [v08])),
          proxiableUUID,
        })(target, callData);
      },
    });

  it("calls an account that answers proxiableUUID() with the ERC-1967 slot wallet code, not a wallet", () => {
    const facts = account(ok(eip1967ImplementationSlot));
    expect(facts).toMatchObject({
      kind: "contract",
      isContract: true,
      kindLabel: "smart-account wallet code (UUPS implementation), not a wallet",
      vendor: null,
      walletCode: { name: null, role: "implementation", matchedBy: "proxiableUUID" },
      outgoingTxs: null,
    });
    expect(facts.entryPoint).toBeUndefined();
  });

  it("keeps the account whose proxiableUUID() reverts (a proxy), or answers anything else", () => {
    for (const answer of [revert, ok(uint(1n)), ok("0x")]) {
      const facts = account(answer);
      expect(facts).toMatchObject({ kind: "smart-account", entryPoint: v08, outgoingTxs: 0 });
      expect(facts.walletCode).toBeUndefined();
    }
  });

  it("keeps an account with UserOperations of its own, even if it answers as an implementation", () => {
    const facts = account(ok(eip1967ImplementationSlot), 2n);
    expect(facts).toMatchObject({ kind: "smart-account", outgoingTxs: 2 });
    expect(facts.walletCode).toBeUndefined();
  });

  it("does not call a UUPS contract that is no account (a token implementation) wallet code", () => {
    const facts = parse("base", {
      code: "0x6080",
      call: contractAt({
        totalSupply: ok(uint(0n)),
        decimals: ok(uint(18n)),
        proxiableUUID: ok(eip1967ImplementationSlot),
      }),
    });
    expect(facts.kind).toBe("token");
    expect(facts.walletCode).toBeUndefined();
  });

  it("leaves what the contract is unknown, never wallet code nor ok, when the probes did not answer", () => {
    const burnt = parse("base", {
      code: "0x6080",
      probesRunOutOfGas: true,
      call: contractAt({ proxiableUUID: ok(eip1967ImplementationSlot) }),
    });
    expect(burnt).toMatchObject({
      kind: "contract",
      unknowns: ["what the contract is (every call to it ran out of gas)"],
    });
    expect(burnt.walletCode).toBeUndefined();
  });

  it("names a copy of Simple7702Account at any address wallet code, by its runtime code hash", () => {
    const facts = parse("base", {
      code: publishedArtifacts.Simple7702Account.deployedBytecode,
      call: contractAt({ entryPoint: ok(encodeAbiParameters([{ type: "address" }], [v08])) }),
    });
    expect(facts).toMatchObject({
      kind: "contract",
      kindLabel: "Simple7702Account wallet code (EIP-7702 delegate), not a wallet",
      walletCode: { name: "Simple7702Account", role: "eip7702-delegate", matchedBy: "codeHash" },
    });
  });

  it("names the registry's wallet code by address, whatever it answers", () => {
    const facts = parse("base", { code: "0x6080", call: contractAt({}) }, delegate);
    expect(facts).toMatchObject({
      kind: "contract",
      walletCode: { name: "MetaMask", role: "eip7702-delegate", matchedBy: "address" },
    });
  });
});

describe("parseFactsBatch: a known sweeper's own contract", () => {
  // BundleBear's "Crime": the code stolen keys delegate to.
  const sweeper = "0x47c74dfd54b2bf7362e5976d748aad24c4f1f36d";

  it("names the registry's sweeper by address, whatever it answers", () => {
    const facts = parse("base", { code: "0x6080", call: contractAt({}) }, sweeper);
    expect(facts).toMatchObject({
      kind: "contract",
      isContract: true,
      kindLabel: "EIP-7702 sweeper contract known to steal deposits (Crime)",
      vendor: null,
      knownSweeper: { label: "Crime" },
      outgoingTxs: null,
    });
    expect(facts.walletCode).toBeUndefined();
  });

  it("leaves other contracts, and the sweeper's address without code, unnamed", () => {
    const plain = parse("base", { code: "0x6080", call: contractAt({}) });
    expect(plain).toMatchObject({ kind: "contract", kindLabel: "contract" });
    expect(plain.knownSweeper).toBeUndefined();
    const noCode = parse("base", { code: "0x", call: contractAt({}) }, sweeper);
    expect(noCode.kind).toBe("eoa");
    expect(noCode.knownSweeper).toBeUndefined();
  });
});

describe("parseFactsBatch: a batch pinned to one block", () => {
  it.each(["eth_getCode", "eth_simulateV1"])(
    "%s answered 'header not found': the batch is of no one block, the node had not reached it",
    (method) => {
      const batch = buildFactsBatch(who, "base", { block: 77n });
      const notThere = { code: -32000, message: "header not found" };
      const body = answerFactsBatch(batch, { chainId: 8453 }).map((entry, index) =>
        batch[index]?.method === method
          ? { jsonrpc: "2.0", id: batch[index]?.id, error: notThere }
          : entry,
      );
      expect(() => parseFactsBatch("base", body, who, { block: 77n })).toThrow(
        RpcBlockNotReachedError,
      );
      // Unpinned, an optional entry's failure stays its own unknown, as before.
      if (method === "eth_simulateV1") {
        expect(parseFactsBatch("base", body, who).receiveSimulation?.outcome).toBe("unavailable");
      }
    },
  );
});
