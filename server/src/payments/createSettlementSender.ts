import { PaymentError } from "@presend/shared/errors/PaymentError";
import {
  type Account,
  type Chain,
  type Hex,
  keccak256,
  type PublicClient,
  RpcRequestError,
  type TransactionReceipt,
  type WalletClient,
} from "viem";

export type SettlementSenderOptions = {
  /** Reads the chain (nonce, receipts) through the facilitator's bounded transport. */
  client: PublicClient;
  /** Signs and prepares with the facilitator's local account. */
  wallet: WalletClient<ReturnType<typeof import("viem").http>, Chain, Account>;
  /** How long a settlement may take to be mined before the caller hears "pending". */
  confirmationTimeoutMs?: number;
  /** A transaction not seen after this long is sent again (its answer may have been lost). */
  rebroadcastMs?: number;
  /** A transaction not mined after this long is replaced with the same nonce at a higher fee. */
  replaceAfterMs?: number;
  pollMs?: number;
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

type Sent = {
  nonce: number;
  request: { to: Hex; data: Hex; gas?: bigint };
  raw: Hex;
  lastBroadcast: number;
  replacedBy?: Hex;
  maxFeePerGas?: bigint;
  maxPriorityFeePerGas?: bigint;
};

/**
 * Sends the in-process facilitator's settlement transactions one at a time through a single
 * queue per key, numbering them itself: concurrent settlements never race for a nonce. The hash
 * is computed from the signed bytes, so an answer lost after broadcast still names the
 * transaction; one not seen is broadcast again, and one stuck is replaced at a higher fee.
 * @example const sender = createSettlementSender({ client, wallet }); const hash = await sender.send({ to, data });
 */
export function createSettlementSender(options: SettlementSenderOptions): SettlementSender {
  const { client, wallet } = options;
  const account = wallet.account;
  const confirmationTimeoutMs = options.confirmationTimeoutMs ?? 30_000;
  const rebroadcastMs = options.rebroadcastMs ?? 2_000;
  const replaceAfterMs = options.replaceAfterMs ?? 12_000;
  const pollMs = options.pollMs ?? 150;
  let nextNonce: number | null = null;
  let tail: Promise<unknown> = Promise.resolve();
  const sent = new Map<Hex, Sent>();
  const replacement = new Map<Hex, Hex>();

  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const result = tail.then(run, run);
    tail = result.catch(() => {});
    return result;
  };

  // Gas, fees and type do not depend on the nonce: filled outside the queue, in parallel.
  const prepare = async (
    request: Sent["request"],
    fees?: { maxFeePerGas: bigint; maxPriorityFeePerGas: bigint },
  ) =>
    wallet.prepareTransactionRequest({
      account,
      chain: wallet.chain,
      to: request.to,
      data: request.data,
      parameters: ["fees", "gas", "type", "chainId"],
      ...(request.gas !== undefined && { gas: request.gas }),
      ...(fees ?? {}),
    });
  const signAt = async (prepared: Awaited<ReturnType<typeof prepare>>, nonce: number) =>
    (await wallet.signTransaction({ ...prepared, nonce } as never)) as Hex;

  const broadcast = async (raw: Hex) => client.sendRawTransaction({ serializedTransaction: raw });

  const send = async (request: Sent["request"]) => {
    // Fails before anything is broadcast (a reverting settlement, the RPC down): no nonce taken.
    const prepared = await prepare(request);
    return serial(async () => {
      for (let attempt = 0; ; attempt++) {
        nextNonce ??= await client.getTransactionCount({
          address: account.address,
          blockTag: "pending",
        });
        const nonce = nextNonce;
        const raw = await signAt(prepared, nonce);
        const hash = keccak256(raw);
        try {
          await broadcast(raw);
        } catch (error) {
          const rejection = nodeRejection(error);
          if (rejection === null) {
            // No answer (timeout, dropped, HTTP error): it may be in the pool. Keep it as sent;
            // waitForReceipt sends it again until it is seen.
          } else if (/already known|already imported/i.test(rejection)) {
            // The node has it.
          } else if (/nonce too low|replacement transaction underpriced/i.test(rejection)) {
            nextNonce = null;
            if (attempt < 3) continue;
            throw error;
          } else {
            nextNonce = null;
            throw error;
          }
        }
        nextNonce = nonce + 1;
        const entry: Sent = { nonce, request, raw, lastBroadcast: Date.now() };
        if ("maxFeePerGas" in prepared && typeof prepared.maxFeePerGas === "bigint") {
          entry.maxFeePerGas = prepared.maxFeePerGas;
          entry.maxPriorityFeePerGas = prepared.maxPriorityFeePerGas as bigint;
        }
        sent.set(hash, entry);
        return hash;
      }
    });
  };

  const replace = (hash: Hex, entry: Sent) =>
    serial(async () => {
      if (entry.replacedBy || entry.maxFeePerGas === undefined) return;
      const bump = (fee: bigint) => (fee * 13n) / 10n + 1n;
      const prepared = await prepare(entry.request, {
        maxFeePerGas: bump(entry.maxFeePerGas),
        maxPriorityFeePerGas: bump(entry.maxPriorityFeePerGas ?? 0n),
      });
      const raw = await signAt(prepared, entry.nonce);
      await broadcast(raw).catch(() => {});
      const next = keccak256(raw);
      entry.replacedBy = next;
      replacement.set(hash, next);
      sent.set(next, { ...entry, raw, lastBroadcast: Date.now(), replacedBy: undefined });
    });

  const receiptOf = (hash: Hex) =>
    client.getTransactionReceipt({ hash }).catch(() => null as TransactionReceipt | null);

  return {
    send,
    finalHash(hash) {
      let current = hash;
      for (let next = replacement.get(current); next; next = replacement.get(current)) {
        current = next;
      }
      return current;
    },
    pendingCount: () => sent.size,
    async waitForReceipt(hash) {
      const started = Date.now();
      for (;;) {
        const candidates = [hash];
        for (let next = replacement.get(hash); next; next = replacement.get(next)) {
          candidates.push(next);
        }
        for (const candidate of candidates) {
          const receipt = await receiptOf(candidate);
          if (receipt !== null) {
            for (const done of candidates) sent.delete(done);
            return receipt;
          }
        }
        const elapsed = Date.now() - started;
        if (elapsed > confirmationTimeoutMs) {
          throw new PaymentError(
            `settlement ${hash} not mined within ${confirmationTimeoutMs} ms`,
            {
              code: "settlement_not_mined",
            },
          );
        }
        const latest = sent.get(candidates[candidates.length - 1] as Hex);
        if (latest !== undefined) {
          if (elapsed > replaceAfterMs && candidates.length === 1) {
            await replace(hash, latest).catch(() => {});
          } else if (Date.now() - latest.lastBroadcast > rebroadcastMs) {
            latest.lastBroadcast = Date.now();
            await broadcast(latest.raw).catch(() => {});
          }
        }
        await new Promise((resolve) => setTimeout(resolve, pollMs));
      }
    },
  };
}

/** The node's own refusal message, or null when no JSON-RPC answer came back at all. */
function nodeRejection(error: unknown): string | null {
  let current: unknown = error;
  while (current instanceof Error) {
    if (current instanceof RpcRequestError) return current.details || current.shortMessage;
    current = (current as { cause?: unknown }).cause;
  }
  return null;
}
