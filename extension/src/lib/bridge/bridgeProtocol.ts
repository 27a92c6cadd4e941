import { z } from "zod";
import { MessageFailureSchema, WalletInfoSchema } from "../messaging/protocol";
import { AddressSchema } from "../storage/schemas";
import type { BridgeRequestKind } from "./bridgeRequest";

// What the MAIN-world bridge sends back to the ISOLATED content script (inside secureChannel;
// the requests are in bridgeRequest.ts). Even authenticated, whatever comes from the MAIN world
// is parsed: it runs in the page's world and uses the page's wallet, which can lie.

export const bridgeResultSchemas = {
  info: WalletInfoSchema,
  account: z.object({ address: AddressSchema }),
  sign: z.object({ signature: z.string().regex(/^0x[0-9a-fA-F]+$/) }),
  signMessage: z.object({ signature: z.string().regex(/^0x[0-9a-fA-F]+$/) }),
  /**
   * What the wallet's node says is deployed at the address, on the wallet's chain. The page can
   * forge this answer: it may only ever add a warning ("a contract"), never clear one.
   */
  code: z.object({ chainId: z.number().int().nullable(), contract: z.boolean() }),
  /**
   * What an eth_call returned. The page can forge it: the payment channel's reads from it are
   * bounded by what the session key itself signed (see createChannelAccess).
   */
  call: z.object({ data: z.string().regex(/^0x(?:[0-9a-fA-F]{2})*$/) }),
} as const satisfies Record<BridgeRequestKind, z.ZodType>;
export type BridgeResult<K extends BridgeRequestKind> = z.infer<(typeof bridgeResultSchemas)[K]>;

export const BridgeReplySchema = z.union([
  z.object({ re: z.string(), ok: z.literal(true), data: z.unknown() }),
  z.object({ re: z.string(), ok: z.literal(false), error: MessageFailureSchema }),
]);

export const BridgeEventSchema = z.discriminatedUnion("event", [
  /** The bridge holds the key (lets the isolated side stop offering it). */
  z.object({ event: z.literal("ready") }),
  /** The wallet's state changed (chain switched, account connected). */
  z.object({ event: z.literal("wallet"), info: WalletInfoSchema }),
  /** The page's wallet accepted a send to these recipients (for the lookalike warning). */
  z.object({ event: z.literal("sent"), addresses: z.array(AddressSchema).min(1).max(10) }),
]);
export type BridgeEvent = z.infer<typeof BridgeEventSchema>;
