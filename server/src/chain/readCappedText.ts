import { RpcResponseTooLargeError } from "./errors";

/**
 * The body of `response` as text, read chunk by chunk and cancelled as soon as it passes
 * `maxBytes` (throws RpcResponseTooLargeError): a hostile or broken endpoint cannot make the
 * server buffer an answer of any size.
 * @example const text = await readCappedText(await fetch(url), 1_000_000);
 */
export async function readCappedText(response: Response, maxBytes: number): Promise<string> {
  const declared = Number(response.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > maxBytes) {
    await response.body?.cancel().catch(() => {});
    throw new RpcResponseTooLargeError(maxBytes);
  }
  if (!response.body) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  let received = 0;
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new RpcResponseTooLargeError(maxBytes);
    }
    text += decoder.decode(value, { stream: true });
  }
  return text + decoder.decode();
}
