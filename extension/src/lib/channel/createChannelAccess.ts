import type { ChannelPaymentOptions } from "@presend/client";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import type { ClientEvmSigner } from "@x402/evm";
import type { ClientChannelStorage } from "@x402/evm/batch-settlement/client";
import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { utcDay } from "../payments/utcDay";
import type { ValidatedItem } from "../storage/validatedItem";
import type { ChannelBalance } from "./channelBalances";
import type { ChannelSessionKey, ChannelStates } from "./channelItems";

export type ChannelAccessDeps = {
  /** The session key, in session storage (content scripts cannot read it). */
  sessionKey: ValidatedItem<ChannelSessionKey | null>;
  /** The client scheme's channel records, in session storage beside the key that signs for them. */
  states: ValidatedItem<ChannelStates>;
  /** What the card and the popup show of each channel (local storage, nothing that signs). */
  balances: ValidatedItem<ChannelBalance[]>;
  now: () => Date;
  /** A new private key (viem's generatePrivateKey; injectable for tests). */
  newKey?: () => Hex;
};

/** How long the balance of a channel from an ended browser session is still shown. */
export const endedChannelShownMs = 2 * 24 * 3_600_000;

/** Which channel: the API origin it pays and the wallet account that deposits into it. */
export type ChannelScope = { apiUrl: string; payer: Address };

export type ChannelAccess = {
  /**
   * What the client pays a check over a channel with: the session key as voucher signer (made
   * on first use, kept for the browser session) and the channel records of this scope.
   * `signVoucher` is asked before each voucher is signed and may refuse by throwing (the caller's
   * one-voucher-per-click rule).
   */
  options(
    scope: ChannelScope,
    deposit: bigint,
    signVoucher: () => void,
  ): Promise<ChannelPaymentOptions>;
  /** Runs `pay` when no other channel payment of this background is under way (vouchers are cumulative). */
  exclusive<T>(pay: () => Promise<T>): Promise<T>;
  /** Whether this browser session still holds the key and the record of `channelId`. */
  holds(channelId: string): Promise<boolean>;
  /**
   * Marks the balances of channels whose record this browser session does not hold (their key
   * ended with an earlier session), so nobody is told they still pay for checks.
   */
  markEndedSessions(): Promise<void>;
  /**
   * Leaves this session's channels for new ones: the server found the local record out of step
   * (a voucher whose answer was lost), which the client cannot resynchronise without reading the
   * chain. A new session key opens a new channel on the next check; the balances of the old ones
   * say they pay no more, and the server refunds them once idle.
   */
  startOver(): Promise<void>;
};

/**
 * The background's access to its payment channels. The session key is generated here and never
 * leaves: it is read from session storage into this function's signer only, it is not in any
 * message, and it signs only batch-settlement vouchers.
 * @example const access = createChannelAccess({ sessionKey, states, balances, now: () => new Date() })
 */
export function createChannelAccess(deps: ChannelAccessDeps): ChannelAccess {
  let queue: Promise<unknown> = Promise.resolve();
  let loading: Promise<ChannelSessionKey> | null = null;

  const sessionKey = (): Promise<ChannelSessionKey> => {
    loading ??= (async () => {
      const kept = await deps.sessionKey.getValue();
      if (kept) return kept;
      const privateKey = (deps.newKey ?? generatePrivateKey)();
      const created = { privateKey, address: privateKeyToAccount(privateKey).address };
      await deps.sessionKey.setValue(created);
      return created;
    })().catch((error: unknown) => {
      loading = null;
      throw error;
    });
    return loading;
  };

  const storageFor = (scope: ChannelScope): ClientChannelStorage => ({
    get: async (key) => (await deps.states.getValue())[key.toLowerCase()] as never,
    async set(key, context) {
      const id = key.toLowerCase();
      await deps.states.update((states) => ({ ...states, [id]: { ...context } }));
      const now = deps.now();
      await deps.balances.update((list) => {
        const before = list.find((b) => b.channelId === id);
        const deposited = context.balance ?? "0";
        const charged = context.chargedCumulativeAmount ?? "0";
        // A voucher signed beyond what the server answered for stays counted until it is.
        const signed =
          before?.signed !== undefined && BigInt(before.signed) > BigInt(charged)
            ? { signed: before.signed }
            : {};
        const balance: ChannelBalance = {
          channelId: id,
          apiUrl: scope.apiUrl,
          payer: scope.payer,
          deposited,
          charged,
          ...signed,
          updatedAt: now.toISOString(),
          ...depositCounted(before, BigInt(deposited), utcDay(now)),
        };
        return [balance, ...list.filter((b) => b.channelId !== id)];
      });
    },
    async delete(key) {
      const id = key.toLowerCase();
      await deps.states.update(({ [id]: _closed, ...rest }) => rest);
      await deps.balances.update((list) => list.filter((b) => b.channelId !== id));
    },
  });

  // Before a voucher is signed, its channel's balance counts it: if its answer is lost, the
  // balance shown does not promise what the server may already have charged.
  const noteSigned = async (message: Record<string, unknown>): Promise<void> => {
    const id = String(message.channelId).toLowerCase();
    const amount = String(message.maxClaimableAmount);
    if (!/^\d+$/.test(amount)) return;
    await deps.balances.update((list) =>
      list.map((balance) =>
        balance.channelId === id && BigInt(amount) > BigInt(balance.signed ?? balance.charged)
          ? { ...balance, signed: amount }
          : balance,
      ),
    );
  };

  const markEndedSessions = async (): Promise<void> => {
    const states = await deps.states.getValue();
    const key = await deps.sessionKey.getValue();
    const now = deps.now().getTime();
    await deps.balances.update((list) =>
      list
        .map((balance) =>
          key !== null && states[balance.channelId] !== undefined
            ? balance
            : { ...balance, sessionEnded: true as const },
        )
        // The server refunds an idle channel after a day: two days on, the rest is back.
        .filter(
          (balance) =>
            !balance.sessionEnded || now - Date.parse(balance.updatedAt) < endedChannelShownMs,
        ),
    );
  };

  return {
    async options(scope, deposit, signVoucher) {
      const key = await sessionKey();
      const account = privateKeyToAccount(key.privateKey as Hex);
      const voucherSigner: ClientEvmSigner = {
        address: account.address,
        async signTypedData(typedData) {
          // The session key signs vouchers and nothing else: not a transfer, not a permit.
          if (typedData.primaryType !== "Voucher") {
            throw new PaymentError("The session key signs batch-settlement vouchers only.", {
              code: "session_key_refused",
            });
          }
          signVoucher();
          await noteSigned(typedData.message);
          return account.signTypedData(typedData as Parameters<typeof account.signTypedData>[0]);
        },
      };
      return { voucherSigner, storage: storageFor(scope), deposit };
    },
    exclusive(pay) {
      const run = queue.then(pay);
      queue = run.catch(() => undefined);
      return run;
    },
    markEndedSessions,
    async startOver() {
      loading = null;
      await deps.sessionKey.setValue(null);
      await deps.states.setValue({});
      await markEndedSessions();
    },
    async holds(channelId) {
      const key = await deps.sessionKey.getValue();
      return key !== null && (await deps.states.getValue())[channelId.toLowerCase()] !== undefined;
    },
  };
}

/**
 * Where a channel's deposits count in the daily cap: a deposit (or top-up) is counted whole on
 * the day it is sent, so what the balance grew by today is added to today's count.
 */
function depositCounted(
  before: ChannelBalance | undefined,
  deposited: bigint,
  today: string,
): Pick<ChannelBalance, "depositDay" | "depositCounted"> {
  const grew = deposited - BigInt(before?.deposited ?? "0");
  const kept =
    before?.depositDay === undefined
      ? {}
      : {
          depositDay: before.depositDay,
          depositCounted: before.depositCounted ?? "0",
        };
  if (grew <= 0n) return kept;
  const already = before?.depositDay === today ? BigInt(before.depositCounted ?? "0") : 0n;
  return { depositDay: today, depositCounted: String(already + grew) };
}
