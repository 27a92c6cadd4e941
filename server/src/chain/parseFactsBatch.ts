import type { Balance, ChainFacts } from "@presend/shared/api/report";
import { type ChainName, chains } from "@presend/shared/chains/chains";
import {
  type AbiFunction,
  decodeAbiParameters,
  formatUnits,
  getAbiItem,
  getAddress,
  type Hex,
  hexToBigInt,
  multicall3Abi,
  size,
} from "viem";
import { z } from "zod";
import { type FactsSubcall, factsBatchIds, factsSubcallKeys } from "./buildFactsBatch";
import { RpcMalformedResponseError, RpcMethodError, RpcWrongChainError } from "./errors";

const NATIVE_TRANSFER_GAS = 21_000n;
// A typical ERC-20 transfer to an address that already holds the token costs ~35-55k gas;
// 65k leaves room for a first-time recipient slot and proxy tokens such as USDC.
const TOKEN_TRANSFER_GAS = 65_000n;

const HexSchema = z.string().regex(/^0x[0-9a-fA-F]*$/, "not hex") as unknown as z.ZodType<Hex>;
const QuantitySchema = z.string().regex(/^0x[0-9a-fA-F]+$/, "not a hex quantity");

const RpcErrorSchema = z.object({ code: z.number(), message: z.string() });
// The error branch comes first: an entry carrying an error is a failure even if it has a result.
const BatchEntrySchema = z.union([
  z.object({ id: z.number().nullable(), error: RpcErrorSchema }),
  z.object({ id: z.number(), result: z.unknown() }).refine((e) => e.result !== undefined),
]);
// Some providers answer a whole batch they refuse (too large, rate limited) with one error object.
const BatchAnswerSchema = z.union([z.array(z.unknown()), z.object({ error: RpcErrorSchema })]);

/** The JSON-RPC methods in the batch, by id, to name a failing entry in error messages. */
const methodById: Record<number, string> = {
  [factsBatchIds.chainId]: "eth_chainId",
  [factsBatchIds.code]: "eth_getCode",
  [factsBatchIds.nonce]: "eth_getTransactionCount",
  [factsBatchIds.balance]: "eth_getBalance",
  [factsBatchIds.gasPrice]: "eth_gasPrice",
  [factsBatchIds.blockNumber]: "eth_blockNumber",
  [factsBatchIds.multicall]: "eth_call",
};

type SubcallResult = { success: boolean; returnData: Hex };

// Looked up once: decoding by the output parameters skips viem's per-call ABI item search.
const aggregate3Outputs = (getAbiItem({ abi: multicall3Abi, name: "aggregate3" }) as AbiFunction)
  .outputs;

/**
 * Turns the JSON answer to `buildFactsBatch(address, chain)` into that address's ChainFacts; throws a
 * ChainReadError when the answer is not a complete, well-formed, error-free batch for that chain.
 * @example parseFactsBatch("base", await response.json()).kind // "eoa"
 */
export function parseFactsBatch(chainName: ChainName, body: unknown): ChainFacts {
  const chain = chains[chainName];
  const answer = BatchAnswerSchema.safeParse(body);
  if (!answer.success) throw new RpcMalformedResponseError("not a JSON-RPC batch answer");
  if (!Array.isArray(answer.data)) {
    const { code, message } = answer.data.error;
    throw new RpcMethodError("batch", code, message);
  }

  const results = new Map<number, unknown>();
  for (const raw of answer.data) {
    const entry = BatchEntrySchema.safeParse(raw);
    if (!entry.success) throw new RpcMalformedResponseError("batch entry without result or error");
    if ("error" in entry.data) {
      const method = (entry.data.id !== null && methodById[entry.data.id]) || "batch";
      throw new RpcMethodError(method, entry.data.error.code, entry.data.error.message);
    }
    results.set(entry.data.id, entry.data.result);
  }
  const field = <T>(id: number, schema: z.ZodType<T>): T => {
    const parsed = schema.safeParse(results.get(id));
    if (!parsed.success) {
      throw new RpcMalformedResponseError(`${methodById[id]} result missing or invalid`);
    }
    return parsed.data;
  };

  const chainId = Number(field(factsBatchIds.chainId, QuantitySchema));
  if (chainId !== chain.id) throw new RpcWrongChainError(chain.id, chainId);
  const code = field(factsBatchIds.code, HexSchema);
  const nonce = hexToBigInt(field(factsBatchIds.nonce, QuantitySchema) as Hex);
  const nativeRaw = hexToBigInt(field(factsBatchIds.balance, QuantitySchema) as Hex);
  const gasPrice = hexToBigInt(field(factsBatchIds.gasPrice, QuantitySchema) as Hex);
  const blockNumber = hexToBigInt(field(factsBatchIds.blockNumber, QuantitySchema) as Hex);
  const subcalls = decodeSubcalls(
    factsSubcallKeys(chain),
    field(factsBatchIds.multicall, HexSchema),
  );

  const native = (raw: bigint): Balance => balance(raw, 18, chain.nativeSymbol);
  const token = (key: FactsSubcall["key"], info: { decimals: number; symbol: string }) => {
    const raw = tokenBalance(subcalls.get(key));
    return raw === null ? null : balance(raw, info.decimals, info.symbol);
  };

  return {
    name: chain.name,
    chainId: chain.id,
    status: "ok",
    ...classify(code, subcalls),
    outgoingTxs: Number(nonce),
    native: native(nativeRaw),
    usdc: token("usdc", chain.usdc),
    usdt: token("usdt", chain.usdt),
    ...(chain.usdcBridged ? { usdcBridged: token("usdcBridged", chain.usdcBridged) } : {}),
    gas: {
      gasPriceWei: gasPrice.toString(),
      nativeTransferCost: native(gasPrice * NATIVE_TRANSFER_GAS),
      tokenTransferCost: native(gasPrice * TOKEN_TRANSFER_GAS),
    },
    blockNumber: blockNumber.toString(),
  };
}

function balance(raw: bigint, decimals: number, symbol: string): Balance {
  return { raw: raw.toString(), decimals, formatted: formatUnits(raw, decimals), symbol };
}

function decodeSubcalls(
  keys: FactsSubcall["key"][],
  data: Hex,
): Map<FactsSubcall["key"], SubcallResult> {
  // "0x" here means no Multicall3 at the canonical address on this endpoint's chain.
  if (size(data) === 0)
    throw new RpcMalformedResponseError("Multicall3 not deployed (empty eth_call)");
  let decoded: readonly SubcallResult[];
  try {
    [decoded] = decodeAbiParameters(aggregate3Outputs, data) as [readonly SubcallResult[]];
  } catch (cause) {
    throw new RpcMalformedResponseError("aggregate3 result does not decode", { cause });
  }
  if (decoded.length !== keys.length) {
    throw new RpcMalformedResponseError(`aggregate3 returned ${decoded.length} results`);
  }
  return new Map(keys.map((key, index) => [key, decoded[index] as SubcallResult]));
}

/** A stablecoin balance; 0 when the token has no code there, null when its answer is unusable. */
function tokenBalance(result: SubcallResult | undefined): bigint | null {
  if (!result?.success) return null;
  // A call to an address without code succeeds with empty data: no token here, so nothing held.
  if (size(result.returnData) === 0) return 0n;
  return word(result) ?? null;
}

/** The single uint256 word of a successful call, or undefined when it returned anything else. */
function word(result: SubcallResult | undefined): bigint | undefined {
  if (!result?.success || size(result.returnData) !== 32) return undefined;
  return hexToBigInt(result.returnData);
}

function classify(
  code: Hex,
  subcalls: Map<FactsSubcall["key"], SubcallResult>,
): Pick<ChainFacts, "isContract" | "kind" | "kindLabel" | "delegate"> {
  if (size(code) === 0) return { isContract: false, kind: "eoa", kindLabel: "wallet (EOA)" };
  // EIP-7702 delegation designator: 0xef0100 || 20-byte delegate. Still an EOA (it has a key and
  // can send), but its code runs the delegate's logic, so it is reported with the delegate.
  if (size(code) === 23 && code.toLowerCase().startsWith("0xef0100")) {
    return {
      isContract: false,
      kind: "eip7702-delegated",
      kindLabel: "EIP-7702 account delegating to an unknown contract",
      delegate: getAddress(`0x${code.slice(8)}`),
    };
  }
  const threshold = word(subcalls.get("threshold"));
  if (threshold !== undefined && threshold > 0n)
    return { isContract: true, kind: "safe", kindLabel: "Safe" };
  const totalSupply = word(subcalls.get("totalSupply"));
  const decimals = word(subcalls.get("decimals"));
  // decimals is a uint8 in the ERC-20 ABI; a larger word means the function is something else.
  if (totalSupply !== undefined && decimals !== undefined && decimals <= 255n) {
    return { isContract: true, kind: "token", kindLabel: "ERC-20 token contract" };
  }
  return { isContract: true, kind: "contract", kindLabel: "contract" };
}
