import type { Balance, ChainFacts, ReceiveSimulation } from "@presend/shared/api/report";
import { type ChainName, chains } from "@presend/shared/chains/chains";
import {
  type Address,
  formatUnits,
  getAddress,
  type Hex,
  hexToBigInt,
  isAddressEqual,
  size,
} from "viem";
import { z } from "zod";
import {
  type FactsSubcallKey,
  factsBatchIds,
  factsSubcallKeys,
  probeKeys,
  receiveSimulationWei,
} from "./buildFactsBatch";
import { classifyAccount, type SubcallResult, word } from "./classifyAccount";
import { decodeCallResults } from "./decodeCallResults";
import {
  blockNotReached,
  RpcBlockNotReachedError,
  RpcMalformedResponseError,
  RpcMethodError,
  RpcWrongChainError,
} from "./errors";
import { plainTransferGas, tokenTransferGas } from "./typicalTransfers";

const HexSchema = z.string().regex(/^0x[0-9a-fA-F]*$/, "not hex") as unknown as z.ZodType<Hex>;
const QuantitySchema = z.string().regex(/^0x[0-9a-fA-F]+$/, "not a hex quantity");

const RpcErrorSchema = z.object({ code: z.number(), message: z.string() });
const ErrorEntrySchema = z.object({ id: z.number().nullable(), error: RpcErrorSchema });
const ResultEntrySchema = z
  .object({ id: z.number(), result: z.unknown() })
  .refine((e) => e.result !== undefined);
/**
 * One batch entry, as the union of the two schemas with the error first (an entry carrying an
 * error is a failure even if it has a result). The error schema is tried only on entries that
 * have an error key: a union would fail it on every good entry first, and zod builds an issue
 * for each failure, on every check.
 */
function parseEntry(raw: unknown) {
  if (typeof raw === "object" && raw !== null && "error" in raw) {
    const failure = ErrorEntrySchema.safeParse(raw);
    if (failure.success) return failure;
  }
  return ResultEntrySchema.safeParse(raw);
}
// Some providers answer a whole batch they refuse (too large, rate limited) with one error object.
const BatchAnswerSchema = z.union([z.array(z.unknown()), z.object({ error: RpcErrorSchema })]);

/** The JSON-RPC methods in the batch, by id, to name a failing entry in error messages. */
const methodById: Record<number, string> = {
  [factsBatchIds.code]: "eth_getCode",
  [factsBatchIds.nonce]: "eth_getTransactionCount",
  [factsBatchIds.gasPrice]: "eth_gasPrice",
  [factsBatchIds.multicall]: "eth_call",
  [factsBatchIds.implementation]: "eth_getStorageAt",
  [factsBatchIds.delegateCodeHash]: "eth_call (delegate code hash)",
  [factsBatchIds.receiveSimulation]: "eth_simulateV1 (receive simulation)",
};

/**
 * Entries whose failure leaves only their own facts unknown: endpoints differ in support for
 * eth_simulateV1 and calls without `to`, and neither may cost the rest of the batch.
 */
const optionalIds = new Set<number>([
  factsBatchIds.implementation,
  factsBatchIds.delegateCodeHash,
  factsBatchIds.receiveSimulation,
]);

/**
 * Turns the JSON answer to `buildFactsBatch(address, chain)` into that address's ChainFacts; throws a
 * ChainReadError when the answer is not a complete, well-formed, error-free batch for that chain.
 * @example parseFactsBatch("base", await response.json()).kind // "eoa"
 */
export function parseFactsBatch(
  chainName: ChainName,
  body: unknown,
  address: Address,
  options: {
    lean?: boolean;
    /** The block the batch was pinned to: an entry its node had not reached fails the batch. */
    block?: bigint;
  } = {},
): ChainFacts {
  const chain = chains[chainName];
  const answer = BatchAnswerSchema.safeParse(body);
  if (!answer.success) throw new RpcMalformedResponseError("not a JSON-RPC batch answer");
  if (!Array.isArray(answer.data)) {
    const { code, message } = answer.data.error;
    throw new RpcMethodError("batch", code, message);
  }

  const results = new Map<number, unknown>();
  const optionalErrors = new Map<number, string>();
  for (const raw of answer.data) {
    const entry = parseEntry(raw);
    if (!entry.success) throw new RpcMalformedResponseError("batch entry without result or error");
    if ("error" in entry.data) {
      const { id, error } = entry.data;
      // Any entry, optional ones too: read again at the node's head, every fact of one block.
      if (options.block !== undefined && blockNotReached.test(error.message)) {
        const method = (id !== null && methodById[id]) || "batch";
        throw new RpcBlockNotReachedError(method, options.block);
      }
      if (id !== null && optionalIds.has(id)) {
        optionalErrors.set(id, `${error.code} ${error.message.slice(0, 80)}`);
        continue;
      }
      const method = (id !== null && methodById[id]) || "batch";
      throw new RpcMethodError(method, error.code, error.message);
    }
    results.set(entry.data.id, entry.data.result);
  }
  const optional = (id: number): Hex | null => {
    const parsed = HexSchema.safeParse(results.get(id));
    return parsed.success ? parsed.data : null;
  };
  const field = <T>(id: number, schema: z.ZodType<T>): T => {
    const parsed = schema.safeParse(results.get(id));
    if (!parsed.success) {
      throw new RpcMalformedResponseError(`${methodById[id]} result missing or invalid`);
    }
    return parsed.data;
  };

  const subcalls = decodeSubcalls(
    factsSubcallKeys(chain),
    field(factsBatchIds.multicall, HexSchema),
  );
  // The behaviour probes answer inside an inner aggregate3 of their own; it fails only when they
  // ran it out of gas (code that burns every call's gas), and then nothing they ask is known.
  // Left out of a lean batch (an empty inner aggregate3): none was asked.
  const probes = options.lean ? undefined : subcalls.get("probes");
  const probesRanOutOfGas = !options.lean && probes?.success !== true;
  if (probes?.success) {
    for (const [key, result] of decodeSubcalls([...probeKeys], probes.returnData)) {
      subcalls.set(key, result);
    }
  }
  // Multicall3's own getters answer on every chain; a failed one means the endpoint misread.
  const getter = (key: "chainId" | "blockNumber" | "nativeBalance") => {
    const value = word(subcalls.get(key));
    if (value === undefined) throw new RpcMalformedResponseError(`Multicall3 ${key} unreadable`);
    return value;
  };
  const chainId = Number(getter("chainId"));
  if (chainId !== chain.id) throw new RpcWrongChainError(chain.id, chainId);
  const code = field(factsBatchIds.code, HexSchema);
  const nonce = hexToBigInt(field(factsBatchIds.nonce, QuantitySchema) as Hex);
  const nativeRaw = getter("nativeBalance");
  const gasPrice = hexToBigInt(field(factsBatchIds.gasPrice, QuantitySchema) as Hex);
  const blockNumber = getter("blockNumber");

  const native = (raw: bigint): Balance => balance(raw, 18, chain.nativeSymbol);
  const token = (key: FactsSubcallKey, info: { decimals: number; symbol: string }) => {
    const raw = tokenBalance(subcalls.get(key));
    return raw === null ? null : balance(raw, info.decimals, info.symbol);
  };
  const { unknowns, ...classification } = classifyAccount({
    address,
    chainId: chain.id,
    code,
    accountNonce: nonce,
    subcalls,
    implementationSlot: optional(factsBatchIds.implementation),
    delegateCodeHash: optional(factsBatchIds.delegateCodeHash),
    probesRanOutOfGas,
    ...(options.lean && { probesNotAsked: true }),
  });
  const receiveSimulation = parseReceiveSimulation(
    results.get(factsBatchIds.receiveSimulation),
    options.lean
      ? "not run: the full answer was over the size bound"
      : optionalErrors.get(factsBatchIds.receiveSimulation),
    address,
  );
  const nativeTransferGas = nativeSendGas(
    receiveSimulation,
    results.get(factsBatchIds.receiveSimulation),
  );

  // On an OP-stack chain each send also pays its L1 data fee. Unread (no oracle answer), the costs
  // leave it out and say so, and the fee is one more fact the chain did not give.
  const l1DataFee = chain.opStack ? readL1DataFees(subcalls) : undefined;
  const unread = l1DataFee === null ? [...unknowns, "the L1 data fee"] : unknowns;

  return {
    name: chain.name,
    chainId: chain.id,
    status: "ok",
    ...classification,
    accountNonce: Number(nonce),
    receiveSimulation,
    ...(unread.length > 0 ? { unknowns: unread } : {}),
    native: native(nativeRaw),
    usdc: token("usdc", chain.usdc),
    usdt: token("usdt", chain.usdt),
    ...(chain.usdcBridged ? { usdcBridged: token("usdcBridged", chain.usdcBridged) } : {}),
    gas: {
      gasPriceWei: gasPrice.toString(),
      nativeTransferGas: nativeTransferGas.toString(),
      nativeTransferCost: native(gasPrice * nativeTransferGas + (l1DataFee?.nativeTransfer ?? 0n)),
      tokenTransferCost: native(gasPrice * tokenTransferGas + (l1DataFee?.tokenTransfer ?? 0n)),
      ...(l1DataFee !== undefined && {
        l1DataFee: l1DataFee && {
          nativeTransfer: native(l1DataFee.nativeTransfer),
          tokenTransfer: native(l1DataFee.tokenTransfer),
        },
      }),
    },
    blockNumber: blockNumber.toString(),
  };
}

/**
 * The GasPriceOracle's L1 data fee of the two priced sends; null unless both answered a word (no
 * oracle at the predeploy answers empty data, and a reverted call fails).
 */
function readL1DataFees(
  subcalls: Map<FactsSubcallKey, SubcallResult>,
): { nativeTransfer: bigint; tokenTransfer: bigint } | null {
  const nativeTransfer = word(subcalls.get("l1FeeNativeTransfer"));
  const tokenTransfer = word(subcalls.get("l1FeeTokenTransfer"));
  if (nativeTransfer === undefined || tokenTransfer === undefined) return null;
  return { nativeTransfer, tokenTransfer };
}

const SimulatedCallSchema = z.object({
  status: QuantitySchema,
  gasUsed: QuantitySchema.optional(),
  returnData: HexSchema,
  logs: z
    .array(z.object({ address: z.string(), topics: z.array(z.string()), data: z.string() }))
    .optional(),
});
const SimulatedBlocksSchema = z.array(z.object({ calls: z.array(SimulatedCallSchema) })).min(1);

/** Where eth_simulateV1's `traceTransfers` logs native transfers (ERC-7528), as ERC-20 Transfer events. */
const nativeTransferLogAddress = "0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee";
const transferTopic = "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

/**
 * kept, rejected or forwarded from the eth_simulateV1 answer (balance read, transfer from the
 * sender, balance read); unavailable when it did not run. A forwarded deposit names the one
 * address that received all of it, when the node traced the transfers.
 */
function parseReceiveSimulation(
  answer: unknown,
  error: string | undefined,
  address: Address,
): ReceiveSimulation {
  const amountWei = receiveSimulationWei.toString();
  const unavailable = (reason: string): ReceiveSimulation => ({
    outcome: "unavailable",
    amountWei,
    error: reason,
  });
  if (answer === undefined) return unavailable(error ?? "no answer");
  const parsed = SimulatedBlocksSchema.safeParse(answer);
  const calls = parsed.success ? parsed.data[0]?.calls : undefined;
  if (calls?.length !== 3) return unavailable("answer does not decode");
  const [before, transfer, after] = calls as unknown as [
    SimulatedCall,
    SimulatedCall,
    SimulatedCall,
  ];
  if (hexToBigInt(transfer.status as Hex) !== 1n) return { outcome: "rejected", amountWei };
  const start = simulatedWord(before);
  const end = simulatedWord(after);
  if (start === undefined || end === undefined) return unavailable("balance not readable");
  if (end - start >= receiveSimulationWei) return { outcome: "kept", amountWei };
  const collector = soleCollector(transfer, address);
  return { outcome: "forwarded", amountWei, ...(collector ? { forwardedTo: collector } : {}) };
}

type SimulatedCall = z.infer<typeof SimulatedCallSchema>;

/**
 * The gas a native send to the address uses: what the simulated transfer used where it went
 * through (a Safe's or a smart account's receive code, a forwarder's onward send cost more than
 * a plain transfer, and a send limited to 21000 gas reverts there), else a plain transfer's.
 */
function nativeSendGas(simulation: ReceiveSimulation, answer: unknown): bigint {
  if (simulation.outcome !== "kept" && simulation.outcome !== "forwarded") {
    return plainTransferGas;
  }
  const parsed = SimulatedBlocksSchema.safeParse(answer);
  const gasUsed = parsed.success ? parsed.data[0]?.calls[1]?.gasUsed : undefined;
  if (gasUsed === undefined) return plainTransferGas;
  const used = hexToBigInt(gasUsed as Hex);
  return used > plainTransferGas ? used : plainTransferGas;
}

function simulatedWord(call: SimulatedCall): bigint | undefined {
  if (hexToBigInt(call.status as Hex) !== 1n) return undefined;
  return word({ success: true, returnData: call.returnData });
}

/** The one address the traced native transfers out of `address` paid the whole amount to. */
function soleCollector(call: SimulatedCall, address: Address): Address | undefined {
  const received = new Map<string, bigint>();
  const topicOf = (account: string) => `0x${account.slice(2).toLowerCase().padStart(64, "0")}`;
  const from = topicOf(address);
  for (const log of call.logs ?? []) {
    const [topic, sender, recipient] = log.topics;
    if (log.address.toLowerCase() !== nativeTransferLogAddress) continue;
    if (topic !== transferTopic || sender?.toLowerCase() !== from || !recipient) continue;
    if (!/^0x[0-9a-fA-F]{1,64}$/.test(log.data)) continue;
    const to = getAddress(`0x${recipient.slice(-40)}`);
    received.set(to, (received.get(to) ?? 0n) + hexToBigInt(log.data as Hex));
  }
  const entries = [...received.entries()].filter(([to]) => !isAddressEqual(to as Address, address));
  if (entries.length !== 1) return undefined;
  const [to, amount] = entries[0] as [string, bigint];
  return amount >= receiveSimulationWei ? (to as Address) : undefined;
}

function balance(raw: bigint, decimals: number, symbol: string): Balance {
  return { raw: raw.toString(), decimals, formatted: formatUnits(raw, decimals), symbol };
}

function decodeSubcalls(keys: FactsSubcallKey[], data: Hex): Map<FactsSubcallKey, SubcallResult> {
  // "0x" here means no Multicall3 at the canonical address on this endpoint's chain.
  if (size(data) === 0)
    throw new RpcMalformedResponseError("Multicall3 not deployed (empty eth_call)");
  let decoded: readonly SubcallResult[];
  try {
    decoded = decodeCallResults(data);
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
