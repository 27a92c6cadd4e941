import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import { limits } from "../limits";

/** Thrown when an answer is larger than allowed; the read is aborted at the limit. */
export class AnswerTooLarge extends UpstreamError<"answer_too_large"> {
  override name = "AnswerTooLarge";
  constructor(readonly limit: number) {
    super(`the answer is larger than ${limit} bytes`, { code: "answer_too_large" });
  }
}

/**
 * A fetch that never holds more than `maxBytes` of an answer: a declared Content-Length over the
 * limit is refused before reading, and a streamed body is cancelled the moment it passes it.
 * Pass it as viem's `http(url, { fetchFn })` or use it directly.
 * @example const transport = http(url, { fetchFn: boundedFetch(), timeout: 5_000 });
 */
export function boundedFetch(
  maxBytes: number = limits.upstreamAnswerBytes,
  inner: typeof fetch = fetch,
): typeof fetch {
  return async (input, init) => {
    const response = await inner(input, init);
    const declared = Number(response.headers.get("content-length") ?? "0");
    if (declared > maxBytes) {
      await response.body?.cancel().catch(() => {});
      throw new AnswerTooLarge(maxBytes);
    }
    if (response.body === null) return response;
    const reader = response.body.getReader();
    const chunks: Uint8Array[] = [];
    let total = 0;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      total += value.byteLength;
      if (total > maxBytes) {
        await reader.cancel().catch(() => {});
        throw new AnswerTooLarge(maxBytes);
      }
      chunks.push(value);
    }
    const body = new Uint8Array(total);
    let offset = 0;
    for (const chunk of chunks) {
      body.set(chunk, offset);
      offset += chunk.byteLength;
    }
    const headers = new Headers(response.headers);
    headers.delete("content-encoding");
    headers.delete("content-length");
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers,
    });
  };
}
