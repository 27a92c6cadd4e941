import { addressPattern } from "@presend/shared/address/addressPattern";
import * as z from "zod/mini";

// What the ISOLATED content script asks the MAIN-world bridge (inside secureChannel). Its own
// file, in zod's tree-shakable build, because the bridge needs nothing else of the protocol:
// the page's world then loads a few kilobytes of zod instead of all of it.

export const BridgeRequestSchema = z.discriminatedUnion("kind", [
  z.object({ id: z.string(), kind: z.literal("info") }),
  z.object({ id: z.string(), kind: z.literal("account") }),
  z.object({ id: z.string(), kind: z.literal("sign"), typedData: z.string() }),
  /** Free facts about an address, read through the wallet's own connection (eth_getCode). */
  z.object({
    id: z.string(),
    kind: z.literal("code"),
    address: z.string().check(z.regex(addressPattern)),
  }),
  /**
   * A read-only eth_call through the wallet's own connection (the payment channel's state in the
   * escrow), answered only while the wallet is on `chainId`.
   */
  z.object({
    id: z.string(),
    kind: z.literal("call"),
    chainId: z.int(),
    to: z.string().check(z.regex(addressPattern)),
    data: z.string().check(z.regex(/^0x(?:[0-9a-fA-F]{2})*$/)),
  }),
  /** The receipt proof only: the bridge signs no other personal message. */
  z.object({
    id: z.string(),
    kind: z.literal("signMessage"),
    account: z.string().check(z.regex(addressPattern)),
    message: z.string().check(z.regex(/^presend receipt 0x[0-9a-f]+$/)),
  }),
]);
export type BridgeRequest = z.infer<typeof BridgeRequestSchema>;
export type BridgeRequestKind = BridgeRequest["kind"];
