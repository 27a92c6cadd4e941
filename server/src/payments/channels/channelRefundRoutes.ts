import type { RoutesConfig } from "@x402/core/server";
import type { MiddlewareHandler } from "hono";
import type { App } from "../../http/appEnv";
import { jsonError } from "../../http/jsonError";
import type { PaidPath } from "../paidRoutes";
import type { Channels } from "./createChannels";

/**
 * The x402 route config of the cooperative refund: `@x402/evm`'s client asks for it with a GET on
 * the paid route (a 402 naming the channel terms), then sends a zero-charge refund voucher on a
 * second GET. Only `batch-settlement` is accepted there.
 * @example Object.assign(routes, channelRefundRouteConfig(channels, paths, amountOf, publicUrl));
 */
export function channelRefundRouteConfig(
  channels: Channels,
  paths: readonly PaidPath[],
  amountOf: (path: PaidPath) => string,
  maxTimeoutSeconds: number,
  publicUrl: string,
): RoutesConfig {
  return Object.fromEntries(
    paths.map((path) => [
      `GET ${path}`,
      {
        accepts: channels.option(amountOf(path), maxTimeoutSeconds),
        resource: `${publicUrl}${path}`,
        description:
          "Cooperative refund of a batch-settlement channel (GET with a refund voucher).",
        mimeType: "application/json",
      },
    ]),
  );
}

/**
 * GET on a paid route: the official middleware answers the refund itself (the scheme skips the
 * handler, then the refund is settled on chain); anything else that reaches the handler (a GET
 * carrying a voucher or a deposit) is answered 405, so nothing is settled or charged.
 * @example registerChannelRefundRoutes(app, ["/check", "/deep"], x402);
 */
export function registerChannelRefundRoutes(
  app: App,
  paths: readonly PaidPath[],
  x402: MiddlewareHandler,
): void {
  for (const path of paths) {
    app.get(path, x402, (c) =>
      jsonError(
        c,
        405,
        "method_not_allowed",
        `GET ${path} only refunds a payment channel; a check is POST ${path}. Nothing was charged.`,
      ),
    );
  }
}
