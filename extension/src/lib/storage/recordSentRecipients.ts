import { type Address, getAddress } from "viem";
import { sentRecipients } from "./items";

/** How many sent-to addresses are remembered: enough history, bounded storage. */
const sentRecipientsLimit = 200;

/**
 * Records addresses the person sent to (newest first, deduplicated) for the lookalike warning.
 * @example await recordSentRecipients(["0xd8dA…"], new Date())
 */
export async function recordSentRecipients(addresses: readonly string[], at: Date): Promise<void> {
  const fresh = addresses.map((address) => ({
    address: getAddress(address) as Address,
    at: at.toISOString(),
  }));
  await sentRecipients.update((list) => {
    const seen = new Set<string>();
    return [...fresh, ...list]
      .filter((entry) => {
        const key = entry.address.toLowerCase();
        if (seen.has(key)) return false;
        seen.add(key);
        return true;
      })
      .slice(0, sentRecipientsLimit);
  });
}
