import { z } from "zod";
import { ChainNameSchema } from "./report";

export const ChainHealthSchema = z.object({
  name: ChainNameSchema,
  chainId: z.number().int(),
  reachable: z.boolean(),
  blockNumber: z.string().nullable(),
  latencyMs: z.number().nullable(),
  error: z.string().optional(),
});

/** Body of `GET /health`: which chains the server can read right now. */
export const HealthResponseSchema = z.object({
  status: z.enum(["ok", "degraded"]),
  version: z.string(),
  chains: z.array(ChainHealthSchema),
});
export type HealthResponse = z.infer<typeof HealthResponseSchema>;
