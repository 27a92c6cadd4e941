import {
  type DevnetClient,
  devnetAccounts,
  devnetClient,
  publishedArtifacts,
  recipientKinds,
  startWorld,
  type World,
  worldRpcUrls,
} from "@presend/devnet";
import type { Gas } from "@presend/shared/api/report";
import type { ChainName } from "@presend/shared/chains/chains";
import { chains, gasPriceOracleAddress } from "@presend/shared/chains/chains";
import { type Address, erc20Abi, type Hex, parseEther, parseGwei } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainReader } from "../chain/createChainReader";
import { typicalTransfers } from "../chain/typicalTransfers";
import { createEngine, type Engine } from "./createEngine";

// What the report says a send costs, against what the send then costs on chain: the report is
// read, then the same send is made for real and its receipt (gasUsed * effectiveGasPrice) is
// compared with the report's cost. A Safe or a smart account runs code when it receives ETH, so a
// native send to it uses more than a plain transfer's 21,000 gas, and one sent with a 21,000 gas
// limit (as exchanges and scripts do for "a plain ETH send") reverts and still burns its fee.
// presend said "Sending ETH costs about 0.000021 ETH" for them, as for a key.
//
// Its own world: the sends are real and change balances the shared world's readers check.
// The local Base and OP Mainnet run Optimism's GasPriceOracle and L1Block predeploys, so the
// report prices each send's L1 data fee as the real chains do; but they are plain anvil chains
// (no OP-stack mode), so the chain does not charge it: receipts carry none, and a receipt is
// compared with the report's cost less its L1 data fee.

type Row = { name: string; chain: ChainName; address: () => Address; moreThanPlain: boolean };

describe("what a send costs, as the report says and as the chain then charges (real anvil chains)", () => {
  let world: World;
  let engine: Engine;
  const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);
  const demo = (label: string) => () => {
    const found = world.demo.find((row) => row.label === label);
    if (!found) throw new Error(`no demo row ${label}`);
    return found.address;
  };

  beforeAll(async () => {
    world = await startWorld();
    engine = createEngine({ reader: createChainReader({ rpcUrls: worldRpcUrls(world) }) });
  });

  afterAll(async () => {
    await world?.stop();
  });

  const client = (chain: ChainName): DevnetClient =>
    devnetClient(chain, world.chains[chain].rpcUrl);

  const reportedGas = async (chain: ChainName, address: Address) => {
    const check = await engine.check({ address, chain });
    if (check.type !== "report") throw new Error(`chain unreadable: ${JSON.stringify(check)}`);
    const { gas } = check.report.chain;
    if (!gas) throw new Error("no gas read");
    return { gas, summary: check.report.verdict.gas.summary };
  };

  const rows: Row[] = [
    {
      name: "a wallet (EOA)",
      chain: "base",
      address: demo("active-eoa-on-base"),
      moreThanPlain: false,
    },
    {
      name: "a Safe 1.4.1",
      chain: "base",
      address: demo("used-safe-on-base"),
      moreThanPlain: true,
    },
    {
      name: "a Safe 1.3.0 L2",
      chain: "base",
      address: () => recipientKinds.safe130L2OnBase,
      moreThanPlain: true,
    },
    {
      name: "an ERC-4337 SimpleAccount",
      chain: "base",
      address: demo("used-smart-account-on-base"),
      moreThanPlain: true,
    },
    {
      name: "a Coinbase-Smart-Wallet-like account",
      chain: "base",
      address: () => recipientKinds.usedCoinbaseWalletOnBase,
      moreThanPlain: true,
    },
    {
      name: "an exchange-style deposit forwarder",
      chain: "ethereum",
      address: () => recipientKinds.depositForwarderOnEthereum,
      moreThanPlain: true,
    },
  ];

  it.each(rows)("$name: the native send costs what the report said", async (row) => {
    const address = row.address();
    const { gas, summary } = await reportedGas(row.chain, address);
    const chainClient = client(row.chain);
    const receipt = await chainClient.confirm(
      chainClient.sendTransaction({ account: faucet, to: address, value: parseEther("0.001") }),
    );
    expect(receipt.status).toBe("success");
    expect(gas.nativeTransferGas).toBe(receipt.gasUsed.toString());
    // The report's cost is that gas at the price it read.
    const reported = BigInt(gas.nativeTransferCost.raw) - l1DataFee(gas, "nativeTransfer");
    expect(reported).toBe(receipt.gasUsed * BigInt(gas.gasPriceWei));
    // The local chains mine a block every second as well: each empty one between the read and
    // the send lowers the base fee by 1/8 and never raises it, so the send pays at most the
    // price read, and under a loaded machine's delay still most of it.
    const paid = receipt.gasUsed * receipt.effectiveGasPrice;
    expect(paid).toBeLessThanOrEqual(reported);
    expect(Number(paid) / Number(reported)).toBeGreaterThan(0.5);
    if (!row.moreThanPlain) {
      expect(receipt.gasUsed).toBe(21_000n);
      expect(summary).not.toContain("21,000 gas");
      return;
    }
    expect(receipt.gasUsed).toBeGreaterThan(21_000n);
    expect(summary).toContain(`${Number(receipt.gasUsed).toLocaleString("en-US")} gas`);
    expect(summary).toContain("a send limited to 21,000 gas fails");
    // And it does: a 21,000-gas send is mined, reverts, and its fee is spent.
    const limited = await chainClient.waitForTransactionReceipt({
      hash: await chainClient.sendTransaction({
        account: faucet,
        to: address,
        value: parseEther("0.001"),
        gas: 21_000n,
      }),
    });
    expect([limited.status, limited.gasUsed]).toEqual(["reverted", 21_000n]);
  });

  it("a base fee raised before the send: the report's price is the one the send pays", async () => {
    const base = client("base");
    // An address not read before: the reader keeps what it read for its cache's lifetime.
    const address = privateKeyToAccount(generatePrivateKey()).address;
    await base.request({
      method: "anvil_setNextBlockBaseFeePerGas",
      params: [`0x${parseGwei("40").toString(16)}`],
    } as never);
    const { gas, summary } = await reportedGas("base", address);
    expect(BigInt(gas.gasPriceWei)).toBeGreaterThan(parseGwei("40"));
    const receipt = await base.confirm(
      base.sendTransaction({ account: faucet, to: address, value: 1n }),
    );
    const paid = receipt.gasUsed * receipt.effectiveGasPrice;
    const reported = BigInt(gas.nativeTransferCost.raw) - l1DataFee(gas, "nativeTransfer");
    // A block mined between read and send lowers the base fee by at most 1/8; never raises it.
    expect(paid).toBeLessThanOrEqual(reported);
    expect(Number(paid) / Number(reported)).toBeGreaterThan(0.87);
    expect(summary).toContain("on Base");
    // No L1 data fee on the local Base: anvil is not in OP-stack mode here.
    expect((receipt as { l1Fee?: bigint | null }).l1Fee ?? null).toBeNull();
  });

  it("a USDC transfer to a new holder costs no more than the report's token transfer", async () => {
    const base = client("base");
    const newHolder = privateKeyToAccount(generatePrivateKey()).address;
    const { gas } = await reportedGas("base", newHolder);
    const payer = privateKeyToAccount(devnetAccounts.payer.privateKey);
    const receipt = await base.confirm(
      base.writeContract({
        account: payer,
        address: chains.base.usdc.address,
        abi: erc20Abi,
        functionName: "transfer",
        args: [newHolder, 1_000_000n],
      }),
    );
    expect(receipt.status).toBe("success");
    expect(receipt.gasUsed * receipt.effectiveGasPrice).toBeLessThanOrEqual(
      BigInt(gas.tokenTransferCost.raw) - l1DataFee(gas, "tokenTransfer"),
    );
  });

  it.each(["base", "optimism"] as const)(
    "%s: each cost is gas x price plus the L1 data fee Optimism's GasPriceOracle prices that send at",
    async (chain) => {
      const address = privateKeyToAccount(generatePrivateKey()).address;
      const { gas, summary } = await reportedGas(chain, address);
      const transfers = typicalTransfers(address, chains[chain]);
      const oracleFee = (unsignedTransaction: Hex) =>
        client(chain).readContract({
          address: gasPriceOracleAddress,
          abi: publishedArtifacts.GasPriceOracle.abi,
          functionName: "getL1Fee",
          args: [unsignedTransaction],
        }) as Promise<bigint>;
      const nativeL1Fee = await oracleFee(transfers.nativeTransfer);
      const tokenL1Fee = await oracleFee(transfers.tokenTransfer);
      // Both small enough for Fjord's floor of 100 bytes' estimate: one fee, above zero.
      expect(nativeL1Fee).toBeGreaterThan(0n);
      const price = BigInt(gas.gasPriceWei);
      expect(BigInt(gas.nativeTransferCost.raw)).toBe(price * 21_000n + nativeL1Fee);
      expect(BigInt(gas.tokenTransferCost.raw)).toBe(price * 65_000n + tokenL1Fee);
      expect(gas.l1DataFee?.nativeTransfer.raw).toBe(nativeL1Fee.toString());
      expect(summary).toContain(`on ${chains[chain].label} including the L1 data fee`);
    },
  );

  it("Ethereum, no OP-stack chain: gas x price alone, and no L1 data fee named", async () => {
    const address = privateKeyToAccount(generatePrivateKey()).address;
    const { gas, summary } = await reportedGas("ethereum", address);
    expect(BigInt(gas.nativeTransferCost.raw)).toBe(BigInt(gas.gasPriceWei) * 21_000n);
    expect(gas).not.toHaveProperty("l1DataFee");
    expect(summary).not.toContain("L1");
  });
});

/** The L1 data fee the report counted in a cost (none off OP-stack chains). */
function l1DataFee(gas: Gas, send: "nativeTransfer" | "tokenTransfer"): bigint {
  return BigInt(gas.l1DataFee?.[send].raw ?? 0);
}
