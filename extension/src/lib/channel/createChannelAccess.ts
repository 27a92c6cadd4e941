import {
  type ChannelPaymentOptions,
  type ChannelSaltStore,
  createMemoryChannelLock,
} from "@presend/client";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import type { ClientEvmSigner } from "@x402/evm";
import type { ClientChannelStorage } from "@x402/evm/batch-settlement/client";
import type { Address, Hex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { utcDay } from "../payments/utcDay";
import type { ValidatedItem } from "../storage/validatedItem";
import type { ChannelBalance } from "./channelBalances";
import type { ChannelSalts, ChannelSessionKey, ChannelStates } from "./channelItems";

export type ChannelAccessDeps = {
  /** The session key, in session storage (content scripts cannot read it). */
  sessionKey: ValidatedItem<ChannelSessionKey | null>;
  /** The client scheme's channel records, in session storage beside the key that signs for them. */
  states: ValidatedItem<ChannelStates>;
  /**
   * The salt of each scope's current channel, in session storage beside the records. Each check
   * and each close is a client of its own: kept only in that client's memory, the new salt a
   * close moved to was lost, and the next check deposited into the refunded channel again (the
   * escrow refuses vouchers below its claimed total), so every check after a close failed.
   */
  salts: ValidatedItem<ChannelSalts>;
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
   * What the client pays one click's check (or close) over a channel with: the session key as
   * voucher signer (made on first use, kept for the browser session) and the channel records of
   * this scope. `clickPrice` is asked before each voucher: the most this click may add to what
   * the key ever signed on the channel (the check's attested price; 0 for a close), null while
   * unknown (nothing is signed). Vouchers are cumulative, so a click pays at most that much
   * whatever the server answers: the one resync a corrective answer allows signs a voucher above
   * the server's proven state, never above what this key signed before the click plus the price.
   */
  options(
    scope: ChannelScope,
    deposit: bigint,
    clickPrice: () => bigint | null,
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
   * (a voucher whose answer was lost) and the client could not resynchronise it (the page's
   * wallet could not read the escrow on Base, or the server's state was not proven by this key's
   * own signature). A new session key opens a new channel on the next check; the balances of the
   * old ones say they pay no more, and the server refunds them once idle.
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
  // Payments and closes one at a time; a failed one does not stop the next.
  const queue = createMemoryChannelLock();
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

  const saltStoreFor = (scope: ChannelScope): ChannelSaltStore => {
    const key = `${scope.apiUrl} ${scope.payer.toLowerCase()}`;
    return {
      read: async () => ((await deps.salts.getValue())[key] as Hex | undefined) ?? null,
      write: async (salt) => {
        await deps.salts.update((salts) => ({ ...salts, [key]: salt }));
      },
    };
  };

  const storageFor = (
    scope: ChannelScope,
    onProven: (channelId: string, amount: bigint) => void,
  ): ClientChannelStorage => ({
    // A channel this browser holds no record of is a new one: `{}` (rather than nothing) keeps
    // the scheme from reading the escrow through the page's wallet for it, which may be on
    // another chain, and whose answer could not raise what the key signs anyway.
    get: async (key) => ((await deps.states.getValue())[key.toLowerCase()] ?? {}) as never,
    async set(key, context) {
      const id = key.toLowerCase();
      const previous = (await deps.states.getValue())[id];
      // The scheme writes a server's signed state only once it verified the signature is this
      // key's (its corrective-402 recovery); a new chain read (totalClaimed) is a resync too.
      const resynced =
        previous !== undefined &&
        ((context.signature !== undefined && context.signature !== previous.signature) ||
          (context.totalClaimed !== undefined && context.totalClaimed !== previous.totalClaimed));
      if (
        context.signature !== undefined &&
        context.signature !== previous?.signature &&
        /^\d+$/.test(context.signedMaxClaimable ?? "")
      ) {
        onProven(id, BigInt(context.signedMaxClaimable as string));
      }
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
          ...(resynced
            ? { resyncedAt: now.toISOString() }
            : before?.resyncedAt !== undefined && { resyncedAt: before.resyncedAt }),
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

  /** The most the session key signed on `channelId` as far as this browser knows. */
  const highestSigned = async (channelId: string): Promise<bigint> => {
    const balance = (await deps.balances.getValue()).find((b) => b.channelId === channelId);
    const charged = BigInt(balance?.charged ?? "0");
    const signed = BigInt(balance?.signed ?? "0");
    return signed > charged ? signed : charged;
  };

  return {
    async options(scope, deposit, clickPrice) {
      const key = await sessionKey();
      const account = privateKeyToAccount(key.privateKey as Hex);
      // This click's vouchers: what the key had signed on each channel before it (read at its
      // first voucher there), and the server's states proven by a signature not made in it.
      const before = new Map<string, bigint>();
      const proven = new Map<string, bigint>();
      const signedInClick = new Set<string>();
      let vouchers = 0;
      const refuse = (message: string) =>
        new PaymentError(message, { code: "session_key_refused" });
      const voucherSigner: ClientEvmSigner = {
        address: account.address,
        async signTypedData(typedData) {
          // The session key signs vouchers and nothing else: not a transfer, not a permit.
          if (typedData.primaryType !== "Voucher") {
            throw refuse("The session key signs batch-settlement vouchers only.");
          }
          const price = clickPrice();
          if (price === null) throw refuse("No attested price for this voucher.");
          // One voucher, and one more after the server's corrective answer resynced the channel.
          vouchers += 1;
          if (vouchers > 2) throw refuse("Already paid for this check.");
          const id = String(typedData.message.channelId).toLowerCase();
          const amount = String(typedData.message.maxClaimableAmount);
          if (!/^\d+$/.test(amount)) throw refuse("A voucher without an amount.");
          const known = before.get(id) ?? (await highestSigned(id));
          before.set(id, known);
          const provenHere = proven.get(id) ?? 0n;
          const base = provenHere > known ? provenHere : known;
          if (BigInt(amount) > base + price) {
            // After a resync (the second voucher), the server's state is one this key cannot be
            // shown to have signed before the click: the channel is out of step for good.
            throw new PaymentError(
              `A voucher for ${amount} base units was asked; this check allows at most ${base + price}.`,
              { code: vouchers > 1 ? "channel_out_of_step" : "session_key_refused" },
            );
          }
          signedInClick.add(`${id}:${amount}`);
          await noteSigned(typedData.message);
          return account.signTypedData(typedData as Parameters<typeof account.signTypedData>[0]);
        },
      };
      const onProven = (id: string, amount: bigint) => {
        // A state proven by a voucher of this very click proves nothing it may build on.
        if (signedInClick.has(`${id}:${amount}`)) return;
        if (amount > (proven.get(id) ?? 0n)) proven.set(id, amount);
      };
      return {
        voucherSigner,
        storage: storageFor(scope, onProven),
        saltStore: saltStoreFor(scope),
        deposit,
      };
    },
    exclusive: (pay) => queue.hold(pay),
    markEndedSessions,
    async startOver() {
      loading = null;
      await deps.sessionKey.setValue(null);
      await deps.states.setValue({});
      // A new key makes new channel ids whatever the salt: the package's zero salt again.
      await deps.salts.setValue({});
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
