import { UpstreamError } from "@presend/shared/errors/UpstreamError";

/** How long one request may take, from sending it to the last byte of its answer. */
export const answerTimeoutMs = 120_000;
/** The most an answer's body may hold: a deep report is tens of kilobytes. */
export const maxAnswerBytes = 4 * 1024 * 1024;

/** Statuses whose answer has no body (a Response with one cannot be made for them). */
const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

/**
 * A fetch whose every answer ends: its headers within `timeoutMs` of sending, and its body
 * (read as it is asked for, so headers such as PAYMENT-RESPONSE are read before it) errored
 * once `timeoutMs` have passed or it grows past `maxBytes`. A server that never finishes or
 * sends without end would otherwise hold a paid call forever, before it could say that the
 * charge is unknown and where the report is kept; each reader of a body here already takes an
 * unreadable one as such (a failed request, or a report to fetch again through /receipts).
 * @example const send = boundedFetch(fetch); await send(url, init);
 */
export function boundedFetch(
  fetchFn: typeof fetch,
  bounds: { timeoutMs?: number; maxBytes?: number } = {},
): typeof fetch {
  const timeoutMs = bounds.timeoutMs ?? answerTimeoutMs;
  const maxBytes = bounds.maxBytes ?? maxAnswerBytes;
  return async (input, init) => {
    const expired = new AbortController();
    const late = new UpstreamError(`No complete answer within ${Math.round(timeoutMs / 1000)} s.`, {
      code: "answer_timeout",
    });
    let timer: ReturnType<typeof setTimeout> | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        expired.abort(late);
        reject(late);
      }, timeoutMs);
    });
    // Raced, never awaited alone: a deadline nobody waits for any more is no unhandled rejection.
    deadline.catch(() => {});
    // A timer left for a body nobody reads must not keep a CLI run alive.
    (timer as { unref?: () => void } | undefined)?.unref?.();
    const done = () => clearTimeout(timer);
    // The caller's own signal still aborts (linked by hand: AbortSignal.any is too new for some
    // browsers the extension runs in).
    const given = init?.signal;
    if (given?.aborted) expired.abort(given.reason);
    given?.addEventListener("abort", () => expired.abort(given.reason), { once: true });
    let response: Response;
    try {
      response = await Promise.race([
        fetchFn(input, { ...init, signal: expired.signal }),
        deadline,
      ]);
    } catch (cause) {
      done();
      throw cause;
    }
    if (response.body === null || nullBodyStatuses.has(response.status) || response.status < 200) {
      done();
      return response;
    }
    const reader = response.body.getReader();
    let received = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        try {
          const chunk = await Promise.race([reader.read(), deadline]);
          if (chunk.done) {
            done();
            controller.close();
            return;
          }
          received += chunk.value.byteLength;
          if (received > maxBytes) {
            throw new UpstreamError(`The answer is larger than ${maxBytes} bytes.`, {
              code: "answer_too_large",
            });
          }
          controller.enqueue(chunk.value);
        } catch (cause) {
          done();
          reader.cancel(cause).catch(() => {});
          controller.error(cause);
        }
      },
      cancel(reason) {
        done();
        return reader.cancel(reason);
      },
    });
    return new Response(body, {
      status: response.status,
      statusText: response.statusText,
      headers: response.headers,
    });
  };
}
