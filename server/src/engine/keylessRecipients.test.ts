import { recipientKinds, worldRpcUrls } from "@presend/devnet";
import { sharedWorld } from "@presend/devnet/testing";
import { type ChainName, chains } from "@presend/shared/chains/chains";
import { type Address, zeroAddress } from "viem";
import { beforeAll, describe, expect, it } from "vitest";
import { createChainReader } from "../chain/createChainReader";
import { createEngine, type Engine } from "./createEngine";

// Addresses nobody holds a key for: the zero and burn addresses, precompiles, and contracts'
// addresses copied onto a chain where nothing is deployed at them. Each was danger, and its
// reasons went on to grade it as a wallet: the zero address, which holds ETH on every chain,
// was also "an exchange deposit address or an unused wallet", a precompile "no activity seen:
// send a small test amount first". The report's text lists every reason; none may say the
// address could be someone's.

const walletActivityCodes = ["active_wallet", "receive_only", "fresh_address", "unused_account"];

const rows: { name: string; address: Address; chain: ChainName; code: string }[] = [
  { name: "the zero address", address: zeroAddress, chain: "base", code: "zero_address" },
  {
    name: "the 0x…dEaD burn address",
    address: "0x000000000000000000000000000000000000dEaD",
    chain: "base",
    code: "burn_address",
  },
  {
    name: "the ecRecover precompile",
    address: "0x0000000000000000000000000000000000000001",
    chain: "base",
    code: "precompile",
  },
  {
    name: "the P256VERIFY precompile",
    address: "0x0000000000000000000000000000000000000100",
    chain: "base",
    code: "precompile",
  },
  {
    name: "Ethereum's USDC contract address on Base",
    address: chains.ethereum.usdc.address,
    chain: "base",
    code: "stablecoin_contract",
  },
  {
    name: "Ethereum's WETH contract address (token list) on Base",
    address: "0xC02aaA39b223FE8D0A0e5C4F27eAD9083C756Cc2",
    chain: "base",
    code: "listed_token_contract",
  },
  {
    name: "OP Mainnet's L1StandardBridge address on OP Mainnet",
    address: recipientKinds.l1StandardBridgeOnEthereum,
    chain: "optimism",
    code: "protocol_contract_elsewhere",
  },
];

describe("addresses nobody holds a key for (real anvil chains)", () => {
  let engine: Engine;

  beforeAll(() => {
    // Reads only: the run's shared world.
    engine = createEngine({ reader: createChainReader({ rpcUrls: worldRpcUrls(sharedWorld()) }) });
  });

  it.each(rows)("$name is danger, and no reason grades it as a wallet", async (row) => {
    for (const result of [
      await engine.check({ address: row.address, chain: row.chain }),
      await engine.deep({ address: row.address, chain: row.chain }),
    ]) {
      if (result.type !== "report") throw new Error(`${row.chain} unreadable`);
      const { verdict, report } = result.report;
      expect(verdict.level).toBe("danger");
      expect(verdict.reasons[0]?.code).toBe(row.code);
      const codes = verdict.reasons.map((reason) => reason.code);
      expect(codes.filter((code) => walletActivityCodes.includes(code))).toEqual([]);
      expect(report).not.toMatch(/exchange deposit address|test amount/);
    }
  });
});
