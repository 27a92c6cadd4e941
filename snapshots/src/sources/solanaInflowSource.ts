import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import { z } from "zod";

/** Mainnet USDC mint (Circle). */
export const solanaUsdcMint = "EPjFWdd5AufqSSqeM2qN1xzybapC8G4wEGGkZwyTDt1v";

export type SolanaAddressInflow = { tx: number; raw: bigint; inflowTx: number };

export type SolanaInflowResult = {
  inflows: Map<string, SolanaAddressInflow>;
  quality: {
    tokenAccounts: number;
    signatures: number;
    transactions: number;
    failedSkipped: number;
    /** Owners whose signature history hit the page limit before reaching the window start. */
    truncated: string[];
  };
};

/** USDC received by Solana owner addresses (through their USDC token accounts) over a window. */
export interface SolanaInflowSource {
  readonly rpcUrl: string;
  measure(owners: string[], window: { from: Date; to: Date }): Promise<SolanaInflowResult>;
}

const TokenAccountsSchema = z.object({
  value: z.array(z.object({ pubkey: z.string() })),
});
const SignaturesSchema = z.array(
  z.object({ signature: z.string(), blockTime: z.number().nullable(), err: z.unknown() }),
);
const TokenBalanceSchema = z.object({
  mint: z.string(),
  owner: z.string().optional(),
  uiTokenAmount: z.object({ amount: z.string() }),
});
const TransactionSchema = z
  .object({
    blockTime: z.number().nullable(),
    meta: z
      .object({
        err: z.unknown(),
        preTokenBalances: z.array(TokenBalanceSchema).nullish(),
        postTokenBalances: z.array(TokenBalanceSchema).nullish(),
      })
      .nullable(),
  })
  .nullable();

export type RpcSolanaInflowSourceOptions = {
  rpcUrl: string;
  fetch?: typeof fetch;
  mint?: string;
  /** getSignaturesForAddress page size (the RPC maximum is 1000). */
  pageSize?: number;
  /** Pages per token account before the history is reported as truncated. */
  maxPages?: number;
};

/**
 * Measures the USDC inflow of Solana owners via getTokenAccountsByOwner, getSignaturesForAddress
 * and getTransaction (balance change of the owner's USDC between pre and post token balances).
 * @example await rpcSolanaInflowSource({ rpcUrl: "https://api.mainnet-beta.solana.com" }).measure([owner], window);
 */
export function rpcSolanaInflowSource(options: RpcSolanaInflowSourceOptions): SolanaInflowSource {
  const doFetch = options.fetch ?? fetch;
  const mint = options.mint ?? solanaUsdcMint;
  const pageSize = options.pageSize ?? 1000;
  const maxPages = options.maxPages ?? 20;
  let nextId = 1;
  const call = async <T>(method: string, params: unknown[], schema: z.ZodType<T>): Promise<T> => {
    const response = await doFetch(options.rpcUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: nextId++, method, params }),
    });
    if (!response.ok) throw new UpstreamError(`solana rpc ${method} answered ${response.status}`);
    const envelope = z
      .object({
        result: z.unknown().optional(),
        error: z.object({ message: z.string() }).optional(),
      })
      .parse(await response.json());
    if (envelope.error) throw new UpstreamError(`solana rpc ${method}: ${envelope.error.message}`);
    const parsed = schema.safeParse(envelope.result);
    if (!parsed.success) {
      throw new UpstreamError(
        `solana rpc ${method}: unexpected result: ${parsed.error.issues[0]?.message}`,
      );
    }
    return parsed.data;
  };

  return {
    rpcUrl: options.rpcUrl,
    async measure(owners, window) {
      const fromSeconds = Math.floor(window.from.getTime() / 1000);
      const toSeconds = Math.floor(window.to.getTime() / 1000);
      const quality: SolanaInflowResult["quality"] = {
        tokenAccounts: 0,
        signatures: 0,
        transactions: 0,
        failedSkipped: 0,
        truncated: [],
      };
      const inflows = new Map<string, SolanaAddressInflow>();
      for (const owner of [...new Set(owners)].sort()) {
        const accounts = await call(
          "getTokenAccountsByOwner",
          [owner, { mint }, { encoding: "jsonParsed" }],
          TokenAccountsSchema,
        );
        quality.tokenAccounts += accounts.value.length;
        const signatures = new Set<string>();
        for (const { pubkey } of accounts.value) {
          let before: string | undefined;
          let reachedStart = false;
          for (let page = 0; page < maxPages && !reachedStart; page++) {
            const batch = await call(
              "getSignaturesForAddress",
              [pubkey, before ? { limit: pageSize, before } : { limit: pageSize }],
              SignaturesSchema,
            );
            quality.signatures += batch.length;
            for (const entry of batch) {
              if (entry.blockTime === null || entry.blockTime >= toSeconds) continue;
              if (entry.blockTime < fromSeconds) {
                reachedStart = true;
                break;
              }
              if (entry.err) quality.failedSkipped++;
              else signatures.add(entry.signature);
            }
            if (batch.length < pageSize) reachedStart = true;
            before = batch.at(-1)?.signature;
            if (!reachedStart && page === maxPages - 1) quality.truncated.push(owner);
          }
        }
        let raw = 0n;
        let inflowTx = 0;
        for (const signature of [...signatures].sort()) {
          const tx = await call(
            "getTransaction",
            [signature, { encoding: "jsonParsed", maxSupportedTransactionVersion: 0 }],
            TransactionSchema,
          );
          quality.transactions++;
          if (!tx?.meta) continue;
          const balance = (list: z.infer<typeof TokenBalanceSchema>[] | null | undefined) =>
            (list ?? [])
              .filter((entry) => entry.mint === mint && entry.owner === owner)
              .reduce((sum, entry) => sum + BigInt(entry.uiTokenAmount.amount), 0n);
          const delta = balance(tx.meta.postTokenBalances) - balance(tx.meta.preTokenBalances);
          if (delta > 0n) {
            raw += delta;
            inflowTx++;
          }
        }
        inflows.set(owner, { tx: signatures.size, raw, inflowTx });
      }
      quality.truncated.sort();
      return { inflows, quality };
    },
  };
}
