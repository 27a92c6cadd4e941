/**
 * The scope of a pinned attestation key: the API's origin (scheme, host and port). The paid
 * routes are resolved against the origin too, so a path in the URL does not change the server.
 * @example pinScope("http://127.0.0.1:8402/") // "http://127.0.0.1:8402"
 */
export function pinScope(apiUrl: string): string {
  return new URL(apiUrl).origin;
}
