import type { OpenAPIHono } from "@hono/zod-openapi";

/** Hono environment shared by every route of the API (no per-request variables yet). */
// biome-ignore lint/complexity/noBannedTypes: Hono's Env wants an object type; ours carries nothing.
export type AppEnv = {};

/** The application type every `register*` function receives. */
export type App = OpenAPIHono<AppEnv>;
