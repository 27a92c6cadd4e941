import { HealthResponseSchema } from "@presend/shared/api/health";
import { chains } from "@presend/shared/chains/chains";

export type ConnectionResult = { ok: true; summary: string } | { ok: false; summary: string };

/**
 * The settings' connection test: asks the API at `apiUrl` for its free `/health` and says, in
 * words, whether presend's server answers there and which chains it can read right now.
 * @example await testConnection("https://api.presend.dev", fetch) // { ok: true, summary: "Connected to presend 1.0.0: …" }
 */
export async function testConnection(
  apiUrl: string,
  fetchImpl: typeof fetch,
  timeoutMs = 5_000,
): Promise<ConnectionResult> {
  let url: URL;
  try {
    url = new URL("/health", apiUrl);
  } catch {
    return { ok: false, summary: "This is not a web address." };
  }
  let response: Response;
  try {
    response = await fetchImpl(url, { signal: AbortSignal.timeout(timeoutMs) });
  } catch {
    return {
      ok: false,
      summary: `No answer from ${url.origin}: check the address, and that the server is running.`,
    };
  }
  const body = HealthResponseSchema.safeParse(await response.json().catch(() => null));
  if (!response.ok || !body.success) {
    return {
      ok: false,
      summary: `${url.origin} answered, but not as presend's server does (HTTP ${response.status}).`,
    };
  }
  const named = (list: typeof body.data.chains) => list.map((c) => chains[c.name].label).join(", ");
  const unreadable = body.data.chains.filter((c) => !c.reachable);
  const readable = body.data.chains.filter((c) => c.reachable);
  const summary = `Connected to presend ${body.data.version}. Chains it can read now: ${named(readable) || "none"}.`;
  return unreadable.length === 0
    ? { ok: true, summary }
    : { ok: true, summary: `${summary} Not readable now: ${named(unreadable)}.` };
}
