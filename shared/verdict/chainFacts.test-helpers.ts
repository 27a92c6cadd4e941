import { formatUnits, parseUnits } from "viem";
import type {
  AddressKind,
  Balance,
  ChainFacts,
  DelegateAssessment,
  KnownSweeper,
  ReceiveSimulation,
  SafeNotSetUp,
  WalletCode,
} from "../api/report";
import { type ChainName, chains } from "../chains/chains";
import { unavailableFacts } from "./unavailableFacts";

export type FactsSpec = {
  kind?: AddressKind;
  nonce?: number;
  /** Human amounts, e.g. "1.5". */
  native?: string;
  usdc?: string;
  usdt?: string;
  /** Only on chains that have a bridged USDC variant. */
  bridged?: string;
  delegate?: string;
  kindLabel?: string;
  /** The wallet vendor, as the reader names it (e.g. "MetaMask", "Coinbase Smart Wallet"). */
  vendor?: string;
  receive?: ReceiveSimulation["outcome"];
  /** Where a forwarded deposit went, when the trace named one address. */
  forwardedTo?: string;
  delegateCategory?: DelegateAssessment["category"];
  /** EIP-1967 implementation (smart accounts). */
  implementation?: string;
  /** Wallet software's own contract, as the reader classified it. */
  walletCode?: WalletCode;
  /** A known sweeper's own contract, as the reader classified it. */
  knownSweeper?: KnownSweeper;
  /** A Safe proxy whose setup never ran, as the reader classified it. */
  safeNotSetUp?: SafeNotSetUp;
  /** Gas price in wei; null for an unreadable gas price. */
  gasPriceWei?: bigint | null;
  /** Gas a native send to the address uses (21000 unless its code runs on receipt). */
  nativeTransferGas?: bigint;
  /**
   * On OP-stack chains, the L1 data fee of each send in wei (default 0.00001 ETH); null when the
   * GasPriceOracle could not be read (then it is listed among the unknowns, as the reader does).
   */
  l1DataFeeWei?: bigint | null;
};

const defaultKindLabels: Record<AddressKind, string> = {
  eoa: "wallet (EOA)",
  "eip7702-delegated": "EIP-7702 account delegating to an unknown contract",
  safe: "Safe (2 owners, threshold 1)",
  "smart-account": "ERC-4337 smart account",
  token: "ERC-20 token contract",
  nft: "NFT collection (ERC-721)",
  contract: "contract",
};

/**
 * A balance built from a human amount, as the chain reader reports it.
 * @example balanceOf("1.5", "USDC", 6) // { raw: "1500000", decimals: 6, formatted: "1.5", symbol: "USDC" }
 */
export function balanceOf(amount: string, symbol: string, decimals: number): Balance {
  return { raw: parseUnits(amount, decimals).toString(), decimals, formatted: amount, symbol };
}

function gasCost(gasPriceWei: bigint, gas: bigint, symbol: string, l1DataFee = 0n): Balance {
  const raw = gasPriceWei * gas + l1DataFee;
  return { raw: raw.toString(), decimals: 18, formatted: formatUnits(raw, 18), symbol };
}

/**
 * Facts of a readable chain; by default a fresh EOA (nonce 0, no balances) at 1 gwei.
 * @example readableFacts("base", { kind: "safe", nonce: 1, usdc: "40" })
 */
export function readableFacts(name: ChainName, spec: FactsSpec = {}): ChainFacts {
  const chain = chains[name];
  const kind = spec.kind ?? "eoa";
  const gasPriceWei = spec.gasPriceWei === undefined ? 1_000_000_000n : spec.gasPriceWei;
  const l1DataFeeWei = chain.opStack
    ? spec.l1DataFeeWei === undefined
      ? 10_000_000_000_000n
      : spec.l1DataFeeWei
    : undefined;
  return {
    name,
    chainId: chain.id,
    status: "ok",
    isContract: kind !== "eoa",
    kind,
    kindLabel: spec.kindLabel ?? defaultKindLabels[kind],
    ...(spec.vendor ? { vendor: spec.vendor } : {}),
    // The default Safe label's owners and threshold, as the reader reports them.
    ...(kind === "safe" ? { safe: { owners: 2, threshold: 1 } } : {}),
    ...(spec.receive
      ? {
          receiveSimulation: {
            outcome: spec.receive,
            amountWei: "1000000000000",
            ...(spec.forwardedTo ? { forwardedTo: spec.forwardedTo } : {}),
          },
        }
      : {}),
    ...(spec.delegateCategory
      ? {
          delegateAssessment: {
            address: spec.delegate ?? "0x0000000000000000000000000000000000007702",
            codeHash: null,
            category: spec.delegateCategory,
            label: spec.delegateCategory === "unknown" ? null : spec.delegateCategory,
            matchedBy: spec.delegateCategory === "unknown" ? null : ("address" as const),
          },
        }
      : {}),
    ...(spec.implementation ? { implementation: spec.implementation } : {}),
    ...(spec.walletCode ? { walletCode: spec.walletCode } : {}),
    ...(spec.knownSweeper ? { knownSweeper: spec.knownSweeper } : {}),
    ...(spec.safeNotSetUp ? { safeNotSetUp: spec.safeNotSetUp } : {}),
    ...(spec.delegate ? { delegate: spec.delegate } : {}),
    ...(l1DataFeeWei === null ? { unknowns: ["the L1 data fee"] } : {}),
    // Tokens and plain contracts keep no count of their own transactions.
    outgoingTxs: ["token", "nft", "contract"].includes(kind) ? null : (spec.nonce ?? 0),
    native: balanceOf(spec.native ?? "0", chain.nativeSymbol, 18),
    usdc: balanceOf(spec.usdc ?? "0", chain.usdc.symbol, chain.usdc.decimals),
    usdt: balanceOf(spec.usdt ?? "0", chain.usdt.symbol, chain.usdt.decimals),
    ...(chain.usdcBridged
      ? {
          usdcBridged: balanceOf(
            spec.bridged ?? "0",
            chain.usdcBridged.symbol,
            chain.usdcBridged.decimals,
          ),
        }
      : {}),
    gas:
      gasPriceWei === null
        ? null
        : {
            gasPriceWei: gasPriceWei.toString(),
            nativeTransferGas: (spec.nativeTransferGas ?? 21_000n).toString(),
            nativeTransferCost: gasCost(
              gasPriceWei,
              spec.nativeTransferGas ?? 21_000n,
              chain.nativeSymbol,
              l1DataFeeWei ?? 0n,
            ),
            tokenTransferCost: gasCost(
              gasPriceWei,
              65_000n,
              chain.nativeSymbol,
              l1DataFeeWei ?? 0n,
            ),
            ...(chain.opStack && {
              l1DataFee:
                l1DataFeeWei === null
                  ? null
                  : {
                      nativeTransfer: gasCost(0n, 0n, chain.nativeSymbol, l1DataFeeWei),
                      tokenTransfer: gasCost(0n, 0n, chain.nativeSymbol, l1DataFeeWei),
                    },
            }),
          },
    blockNumber: "100",
  };
}

/**
 * Facts of a chain that could not be read: every fact is null.
 * @example unreadableFacts("optimism", "HTTP 503")
 */
export function unreadableFacts(name: ChainName, error = "request timed out"): ChainFacts {
  return unavailableFacts(name, error);
}
