import { z } from "zod";
import { ChecksumSchema } from "./report";

/** Body of `GET /validate` 200: the checksum verdict for the supplied value. */
export const ValidateResponseSchema = z.object({
  /** The value as supplied. */
  address: z.string(),
  /** True when it is a well-formed address whose checksum (if any) is right. */
  valid: z.boolean(),
  /** EIP-55 form when valid, otherwise null. */
  normalized: z.string().nullable(),
  checksum: ChecksumSchema,
});
export type ValidateResponse = z.infer<typeof ValidateResponseSchema>;
