/**
 * An RPC URL as it may be shown in logs, banners and error texts: scheme, host and port only.
 * Providers put their API key in the path (`/v2/<key>`), the query (`?apikey=`) or the user
 * info, so anything past the origin is replaced by `/...` and credentials are dropped. A value that
 * is not a URL is shown as `(unparseable URL)`, never as itself.
 * @example shownRpcUrl("https://base-mainnet.g.alchemy.com/v2/KEY") // "https://base-mainnet.g.alchemy.com/..."
 */
export function shownRpcUrl(url: string): string {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return "(unparseable URL)";
  }
  const hidden = parsed.pathname !== "/" || parsed.search !== "" || parsed.hash !== "";
  const credentials = parsed.username !== "" || parsed.password !== "";
  return `${parsed.origin}${hidden || credentials ? "/..." : ""}`;
}
