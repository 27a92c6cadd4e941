import { PaymentError } from "@presend/shared/errors/PaymentError";
import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import {
  type Account,
  type Chain,
  type FallbackTransport,
  type Hex,
  keccak256,
  type PublicClient,
  RpcRequestError,
  type TransactionReceipt,
  TransactionReceiptNotFoundError,
  type Transport,
  type WalletClient,
} from "viem";
import type { SenderJournal, SenderJournalEntry } from "./fileSenderJournal";

export type SettlementSenderOptions = {
  /**
   * Reads the chain (nonce, receipts) and broadcasts through the facilitator's bounded transport:
   * one URL, or viem's fallback over several (keyHiddenFallbackTransport).
   */
  client: PublicClient;
  /** Signs and prepares with the facilitator's local account. */
  wallet: WalletClient<Transport, Chain, Account>;
  /** How long a settlement may take to be mined before the caller hears "pending". */
  confirmationTimeoutMs?: number;
  /** A transaction not yet mined is sent again this often (its answer may have been lost). */
  rebroadcastMs?: number;
  /** The lowest unmined transaction is replaced at a higher fee after waiting this long. */
  replaceAfterMs?: number;
  /** How often the chain is polled while transactions are unmined. */
  pollMs?: number;
  /** A stuck transaction is replaced at most this many times (each at least 1.3x the fee). */
  maxReplacements?: number;
  /**
   * Keeps the unmined transactions across a restart: a sender started on the same journal adopts
   * what its predecessor left unmined, sends it again and replaces the lowest at a higher fee,
   * so a settlement stuck in the pool does not hold back every later nonce for good.
   */
  journal?: SenderJournal;
  onError?: (error: unknown) => void;
};

export type SettlementSender = {
  /** Queues, numbers, signs and broadcasts one transaction; resolves with its hash. */
  send(request: { to: Hex; data: Hex; gas?: bigint }): Promise<Hex>;
  /** Waits for the receipt of `hash` or of the transaction that replaced it. */
  waitForReceipt(hash: Hex): Promise<TransactionReceipt>;
  /** The transaction that finally carries `hash`'s nonce (itself unless it was replaced). */
  finalHash(hash: Hex): Hex;
  /** Transactions broadcast and not yet seen mined. */
  pendingCount(): number;
};

type Fees = { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint };

/** Everything sent with one nonce: the first transaction and the replacements that followed. */
type NonceSlot = {
  nonce: number;
  request: { to: Hex; data: Hex; gas?: bigint };
  /** Every transaction signed for this nonce, oldest first; the last one is current. */
  hashes: Hex[];
  raw: Hex;
  fees?: Fees;
  lastBroadcast: number;
  placedAt: number;
  replacements: number;
  /** Set once the chain's nonce has moved past this slot. */
  closedAt?: number;
  /** The nonce was consumed by a transaction that is none of ours: this settlement never lands. */
  dropped?: boolean;
};

/** Slots closed longer ago than this are forgotten (finalHash then answers the hash itself). */
const retainClosedMs = 15 * 60_000;
/** At most this many unmined transactions are sent again per poll. */
const rebroadcastBatch = 16;

/**
 * Sends the in-process facilitator's settlement transactions one at a time through a single
 * queue per key, numbering them itself: concurrent settlements never race for a nonce. The hash
 * is computed from the signed bytes, so an answer lost after broadcast still names the
 * transaction. A watcher owns every unmined transaction, whether or not anyone still waits for
 * it: one the node never got is sent again, and the lowest one, which holds back all later
 * nonces, is replaced at a fee re-read from the chain until it is mined.
 * @example const sender = createSettlementSender({ client, wallet }); const hash = await sender.send({ to, data });
 */
export function createSettlementSender(options: SettlementSenderOptions): SettlementSender {
  const { client, wallet } = options;
  const account = wallet.account;
  const confirmationTimeoutMs = options.confirmationTimeoutMs ?? 30_000;
  const rebroadcastMs = options.rebroadcastMs ?? 2_000;
  const replaceAfterMs = options.replaceAfterMs ?? 12_000;
  const pollMs = options.pollMs ?? 150;
  const maxReplacements = options.maxReplacements ?? 8;
  let nextNonce: number | null = null;
  let tail: Promise<unknown> = Promise.resolve();
  const slots = new Map<number, NonceSlot>();
  const slotByHash = new Map<Hex, NonceSlot>();
  let watching = false;
  const onError = options.onError ?? (() => {});

  // Journal writes run one at a time, each with the open slots as they are then.
  let journalTail: Promise<unknown> = Promise.resolve();
  const toEntry = (slot: NonceSlot): SenderJournalEntry => ({
    nonce: slot.nonce,
    request: {
      to: slot.request.to,
      data: slot.request.data,
      ...(slot.request.gas !== undefined && { gas: slot.request.gas.toString() }),
    },
    raw: slot.raw,
    hashes: slot.hashes,
    ...(slot.fees && {
      fees: {
        maxFeePerGas: slot.fees.maxFeePerGas.toString(),
        maxPriorityFeePerGas: slot.fees.maxPriorityFeePerGas.toString(),
      },
    }),
  });
  const persist = (extra: NonceSlot[] = []) => {
    const journal = options.journal;
    if (journal === undefined) return Promise.resolve();
    const entries = [...openSlots(), ...extra].map(toEntry);
    const written = journalTail.then(() => journal.write(entries));
    journalTail = written.catch(onError);
    return written.catch(onError);
  };

  // What a predecessor left unmined becomes ours: sent again at once, the lowest replaced at
  // once (placed "long ago"), before this sender numbers anything.
  const adopt = async () => {
    const journal = options.journal;
    if (journal === undefined) return;
    try {
      const entries = await journal.read();
      if (entries.length === 0) return;
      const mined = await client.getTransactionCount({
        address: account.address,
        blockTag: "latest",
      });
      const open = entries.filter((entry) => entry.nonce >= mined);
      // A predecessor's unmined nonces start at the chain's next one (it closes a nonce only once
      // the chain passed it). A journal that starts further on was written against another chain
      // (a local world started afresh on the same DATA_DIR): sent again, it would leave a gap no
      // transaction fills, and every later settlement behind it. Start as a new sender.
      if (open.length > 0 && Math.min(...open.map((entry) => entry.nonce)) !== mined) {
        onError(new Error(`settlement journal skipped: it starts past the chain's nonce ${mined}`));
        await persist();
        return;
      }
      for (const entry of open) {
        const slot: NonceSlot = {
          nonce: entry.nonce,
          request: {
            to: entry.request.to as Hex,
            data: entry.request.data as Hex,
            ...(entry.request.gas !== undefined && { gas: BigInt(entry.request.gas) }),
          },
          hashes: entry.hashes as Hex[],
          raw: entry.raw as Hex,
          lastBroadcast: 0,
          placedAt: 0,
          replacements: 0,
          ...(entry.fees && {
            fees: {
              maxFeePerGas: BigInt(entry.fees.maxFeePerGas),
              maxPriorityFeePerGas: BigInt(entry.fees.maxPriorityFeePerGas),
            },
          }),
        };
        slots.set(slot.nonce, slot);
        for (const hash of slot.hashes) slotByHash.set(hash, slot);
      }
      await persist();
      if (openSlots().length > 0) watch();
    } catch (error) {
      // An unreadable journal or chain: start as a new sender (the pool may still hold them).
      onError(error);
    }
  };

  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const result = tail.then(run, run);
    tail = result.catch(() => {});
    return result;
  };

  // Gas, fees and type do not depend on the nonce: filled outside the queue, in parallel.
  const prepare = async (request: NonceSlot["request"], fees?: Fees) =>
    wallet.prepareTransactionRequest({
      account,
      chain: wallet.chain,
      to: request.to,
      data: request.data,
      parameters: ["fees", "gas", "type", "chainId"],
      ...(request.gas !== undefined && { gas: request.gas }),
      ...(fees ?? {}),
    });
  type Prepared = Awaited<ReturnType<typeof prepare>>;
  const feesOf = (prepared: Prepared): Fees | undefined =>
    "maxFeePerGas" in prepared && typeof prepared.maxFeePerGas === "bigint"
      ? {
          maxFeePerGas: prepared.maxFeePerGas,
          maxPriorityFeePerGas: (prepared.maxPriorityFeePerGas as bigint | undefined) ?? 0n,
        }
      : undefined;
  const signAt = async (prepared: Prepared, nonce: number) =>
    (await wallet.signTransaction({ ...prepared, nonce } as never)) as Hex;

  // Over viem's fallback, a broadcast the first endpoint took without answering (a timeout, a
  // cut connection) is sent to the next, and what the caller hears is that one's answer: "nonce
  // too low" or a refusal from an endpoint that has not seen the first copy yet, while the
  // transaction is in flight. So the fallback's report of each attempt is kept, and a refusal
  // after an endpoint gave no answer is read as no answer: the transaction may be in flight, it
  // keeps its nonce and the watcher follows it, never a settlement called failed (or signed again
  // at another nonce) while it can still be mined.
  const unansweredSomewhere = new Set<Hex>();
  const fallbackReports = client.transport as Partial<ReturnType<FallbackTransport>["value"]>;
  fallbackReports?.onResponse?.(({ method, params, status, error }) => {
    if (method !== "eth_sendRawTransaction" || status !== "error") return;
    if (nodeRejection(error) === null) unansweredSomewhere.add(params[0] as Hex);
  });
  /** Broadcasts `raw`; throws the refusal, or an error with no node answer in it (see above). */
  const broadcast = async (raw: Hex) => {
    unansweredSomewhere.delete(raw);
    try {
      return await client.sendRawTransaction({ serializedTransaction: raw });
    } catch (error) {
      if (unansweredSomewhere.has(raw) && nodeRejection(error) !== null) {
        throw new BroadcastUnansweredError(error);
      }
      throw error;
    } finally {
      unansweredSomewhere.delete(raw);
    }
  };
  const isKnown = (hash: Hex) =>
    client.getTransaction({ hash }).then(
      () => true,
      () => false,
    );

  const openSlots = () =>
    [...slots.values()]
      .filter((slot) => slot.closedAt === undefined)
      .sort((a, b) => a.nonce - b.nonce);

  // After a refusal the nonce is read again, but never below a slot still ours: a transaction
  // whose broadcast went unanswered keeps its nonce, and the watcher sends it again.
  const readNextNonce = async () => {
    const pending = await client.getTransactionCount({
      address: account.address,
      blockTag: "pending",
    });
    const highestOpen = openSlots().at(-1)?.nonce;
    return highestOpen === undefined ? pending : Math.max(pending, highestOpen + 1);
  };

  const send = async (request: NonceSlot["request"]) => {
    // Fails before anything is broadcast (a reverting settlement, the RPC down): no nonce taken.
    let prepared = await prepare(request);
    await adopted;
    return serial(async () => {
      for (let attempt = 0; ; attempt++) {
        nextNonce ??= await readNextNonce();
        const nonce = nextNonce;
        const raw = await signAt(prepared, nonce);
        const hash = keccak256(raw);
        // Written before it is broadcast: a sender that dies now leaves it to its successor.
        await persist([
          {
            nonce,
            request,
            hashes: [hash],
            raw,
            lastBroadcast: 0,
            placedAt: 0,
            replacements: 0,
            ...(feesOf(prepared) && { fees: feesOf(prepared) as Fees }),
          },
        ]);
        try {
          await broadcast(raw);
        } catch (error) {
          const rejection = nodeRejection(error);
          if (rejection === null) {
            // No answer (timeout, dropped, HTTP error): it may be in the pool. Keep it as sent;
            // the watcher sends it again until the chain's nonce passes it.
          } else if (/already known|already imported/i.test(rejection) || (await isKnown(hash))) {
            // The node has it (an earlier attempt of ours reached it).
          } else if (/nonce too low|replacement transaction underpriced/i.test(rejection)) {
            nextNonce = null;
            if (attempt < 3) continue;
            throw error;
          } else if (/base fee|fee cap|underpriced|outdated/i.test(rejection) && attempt < 3) {
            // Prepared before a long wait in the queue; the chain's fees moved on.
            prepared = await prepare(request);
            continue;
          } else {
            nextNonce = null;
            throw error;
          }
        }
        nextNonce = nonce + 1;
        const now = Date.now();
        const slot: NonceSlot = {
          nonce,
          request,
          hashes: [hash],
          raw,
          lastBroadcast: now,
          placedAt: now,
          replacements: 0,
        };
        const fees = feesOf(prepared);
        if (fees) slot.fees = fees;
        slots.set(nonce, slot);
        slotByHash.set(hash, slot);
        watch();
        return hash;
      }
    });
  };

  // Same nonce, fee at least 1.3x the last one (nodes refuse less) and at least what the chain
  // asks now: a base fee that rose past the old cap would leave a single 1.3x bump stuck too.
  const replace = async (slot: NonceSlot) => {
    if (slot.fees === undefined || slot.replacements >= maxReplacements) return;
    const bump = (fee: bigint) => (fee * 13n) / 10n + 1n;
    const current = await client.estimateFeesPerGas().catch(() => null);
    const max = (a: bigint, b: bigint | undefined) => (b !== undefined && b > a ? b : a);
    const maxPriorityFeePerGas = max(
      bump(slot.fees.maxPriorityFeePerGas),
      current?.maxPriorityFeePerGas,
    );
    const maxFeePerGas = max(
      max(bump(slot.fees.maxFeePerGas), current?.maxFeePerGas),
      maxPriorityFeePerGas,
    );
    const prepared = await prepare(slot.request, { maxFeePerGas, maxPriorityFeePerGas });
    const raw = await signAt(prepared, slot.nonce);
    const hash = keccak256(raw);
    slot.placedAt = Date.now();
    slot.replacements += 1;
    try {
      await broadcast(raw);
    } catch (error) {
      // Refused (mined meanwhile, or still underpriced): keep the current one, try again later.
      if (nodeRejection(error) !== null) return;
    }
    slot.hashes.push(hash);
    slot.raw = raw;
    slot.fees = { maxFeePerGas, maxPriorityFeePerGas };
    slot.lastBroadcast = Date.now();
    slotByHash.set(hash, slot);
    await persist();
  };

  /** The receipt, null when the node says it has none, undefined when the node did not answer. */
  const readReceipt = (hash: Hex) =>
    client.getTransactionReceipt({ hash }).then(
      (receipt): TransactionReceipt | null | undefined => receipt,
      (error) => (error instanceof TransactionReceiptNotFoundError ? null : undefined),
    );

  const closeMinedSlots = async (minedNonce: number) => {
    const now = Date.now();
    const closing = openSlots().some((slot) => slot.nonce < minedNonce);
    for (const slot of openSlots()) {
      if (slot.nonce >= minedNonce) break;
      slot.closedAt = now;
      // Only the node saying "no such receipt" for every one of ours proves a foreign transaction
      // took the nonce; an unanswered read proves nothing.
      const receipts = await Promise.all(slot.hashes.map(readReceipt));
      if (receipts.every((receipt) => receipt === null)) slot.dropped = true;
    }
    if (closing) await persist();
    for (const [nonce, slot] of slots) {
      if (slot.closedAt !== undefined && now - slot.closedAt > retainClosedMs) {
        slots.delete(nonce);
        for (const hash of slot.hashes) slotByHash.delete(hash);
      }
    }
  };

  const watchOnce = async () => {
    const minedNonce = await client
      .getTransactionCount({ address: account.address, blockTag: "latest" })
      .catch(() => null);
    if (minedNonce !== null) await closeMinedSlots(minedNonce);
    const open = openSlots();
    const head = open[0];
    const now = Date.now();
    if (
      head !== undefined &&
      minedNonce !== null &&
      head.nonce === minedNonce &&
      now - head.placedAt > replaceAfterMs
    ) {
      await replace(head).catch(() => {});
    }
    for (const slot of open.slice(0, rebroadcastBatch)) {
      if (Date.now() - slot.lastBroadcast <= rebroadcastMs) continue;
      slot.lastBroadcast = Date.now();
      await broadcast(slot.raw).catch(() => {});
    }
    return open.length > 0;
  };

  // One watcher per sender, alive while any transaction is unmined; its timer never holds the
  // process open.
  const watch = () => {
    if (watching) return;
    watching = true;
    const tick = () => {
      watchOnce()
        .catch(() => true)
        .then((more) => {
          if (!more) {
            watching = false;
            return;
          }
          setTimeout(tick, pollMs).unref?.();
        });
    };
    setTimeout(tick, pollMs).unref?.();
  };

  const adopted = adopt();
  return {
    send,
    finalHash: (hash) => slotByHash.get(hash)?.hashes.at(-1) ?? hash,
    pendingCount: () => openSlots().length,
    async waitForReceipt(hash) {
      const started = Date.now();
      for (let polls = 0; ; polls++) {
        const slot = slotByHash.get(hash);
        const candidates = slot ? [...slot.hashes].reverse() : [hash];
        for (const candidate of candidates) {
          const receipt = await readReceipt(candidate);
          if (receipt) {
            if (slot !== undefined) slot.closedAt ??= Date.now();
            return receipt;
          }
        }
        if (slot?.dropped) {
          throw new PaymentError(
            `settlement ${hash} dropped: its nonce was used by another transaction`,
            { code: "settlement_dropped" },
          );
        }
        if (Date.now() - started > confirmationTimeoutMs) {
          throw new PaymentError(
            `settlement ${hash} not mined within ${confirmationTimeoutMs} ms`,
            {
              code: "settlement_not_mined",
            },
          );
        }
        if (slot !== undefined && slot.closedAt === undefined) watch();
        // A node that mines on arrival (or a fast chain) has the receipt a few milliseconds after
        // the broadcast returned, not a whole poll later: the first waits are short, then pollMs.
        const wait = Math.min(pollMs, 10 * 2 ** polls);
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    },
  };
}

/**
 * A broadcast one endpoint refused after an earlier one gave no answer: the earlier one may have
 * it, so the refusal says nothing about whether it is in flight (nodeRejection reads it as no answer).
 */
class BroadcastUnansweredError extends UpstreamError<"broadcast_unanswered"> {
  constructor(cause: unknown) {
    super("an RPC endpoint gave no answer to the broadcast before another refused it", {
      code: "broadcast_unanswered",
      cause,
    });
  }
}

/** The node's own refusal message, or null when no JSON-RPC answer came back at all. */
function nodeRejection(error: unknown): string | null {
  let current: unknown = error;
  while (current instanceof Error) {
    if (current instanceof BroadcastUnansweredError) return null;
    if (current instanceof RpcRequestError) return current.details || current.shortMessage;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
