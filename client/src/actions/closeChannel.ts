import type { ChannelCloseResult } from "../channels/createChannelPayer";
import type { PresendConfig } from "../createPresendConfig";
import { describeCause } from "../outcomes";

/**
 * Closes this client's payment channel with the server (when `channel` is configured): what
 * was charged is claimed, the rest of the deposit goes back to the payer on chain, and the spend
 * cap gets back what the refund returned of the deposits it holds.
 * @example const closed = await closeChannel(config);
 */
export async function closeChannel(config: PresendConfig): Promise<ChannelCloseResult> {
  const channelPayer = config.channelPayer();
  if (channelPayer === null)
    return { type: "failed", message: "No payment channel is configured." };
  try {
    // The same transport as the checks: never following a redirect.
    return await (await channelPayer).close(`${config.base}/check`, config.fetchNoRedirect);
  } catch (cause) {
    return { type: "failed", message: `No paying key: ${describeCause(cause)}` };
  }
}
