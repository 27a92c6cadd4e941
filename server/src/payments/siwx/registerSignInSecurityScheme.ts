import type { App } from "../../http/appEnv";
import { rereadWindowSeconds } from "./createSignInState";
import { signInHeader } from "./verifySignIn";

/** Name of the OpenAPI security scheme of a Sign-In-With-X header. */
export const signInSecurityScheme = "siwx";

/**
 * Documents Sign-In-With-X as an OpenAPI security scheme. OpenAPI has no wallet sign-in type, so
 * it is a header scheme marked `x-agentcash-auth-kind: siwx`, which x402 crawlers
 * (`@agentcash/discovery`) read as wallet identity, not as an API key. The paid routes list it as
 * optional: the payment is what pays, the sign-in only re-reads what was paid for.
 * @example registerSignInSecurityScheme(app);
 */
export function registerSignInSecurityScheme(app: App): void {
  app.openAPIRegistry.registerComponent("securitySchemes", signInSecurityScheme, {
    type: "apiKey",
    in: "header",
    name: signInHeader,
    "x-agentcash-auth-kind": "siwx",
    description: `Sign-In-With-X (x402 sign-in-with-x extension): sign the challenge a 402 carries (EIP-191) and send it base64-encoded in ${signInHeader}. A wallet that paid for the same route, address and chain in the last ${rereadWindowSeconds / 60} minutes gets that report again without paying; on /receipts it stands for the signature parameter.`,
  } as never);
}
