import { type Address, getAddress } from "viem";
import { sentRecipients } from "./items";
import { mergeSentRecipients } from "./mergeSentRecipients";

/**
 * Records addresses the person sent to on `site` (the page that reported them) for the
 * lookalike warning: within the site's share, never pushing out another site's entries.
 * @example await recordSentRecipients(["0xd8dA…"], new Date(), "https://app.example")
 */
export async function recordSentRecipients(
  addresses: readonly string[],
  at: Date,
  site: string,
): Promise<void> {
  const fresh = addresses.map((address) => ({
    address: getAddress(address) as Address,
    at: at.toISOString(),
  }));
  await sentRecipients.update((list) => mergeSentRecipients(list, fresh, site));
}
