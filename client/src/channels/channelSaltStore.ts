import type { Hex } from "viem";

/**
 * Where a client keeps the salt of the channel it pays through. The salt is part of the
 * channel's id (with payer, payee, token and keys): once a channel is refunded, the escrow keeps
 * its claimed total, so a fresh start (a deposit whose vouchers count from zero) needs a channel
 * with another salt. Kept as long as the channel's state is (`ChannelPaymentOptions.storage`).
 */
export type ChannelSaltStore = {
  /** The current channel's salt; null before any was chosen (the package's zero salt). */
  read(): Promise<Hex | null>;
  write(salt: Hex): Promise<void>;
};

/**
 * A salt store in memory, for a client whose channel state lives as long as the process.
 * @example const channel = { voucherSigner, saltStore: createMemoryChannelSaltStore() };
 */
export function createMemoryChannelSaltStore(): ChannelSaltStore {
  let salt: Hex | null = null;
  return {
    read: async () => salt,
    write: async (next) => {
      salt = next;
    },
  };
}
