import { errorCode } from "../answers/errorOf";

/**
 * How long a call waits for another call with the same payment id to finish (a request can take
 * verification, the engine and a settlement: about the authorization's 60 s validity at most).
 */
export const inFlightWaitMs = 90_000;

/**
 * Sends a paid request, and while the server answers 409 payment_id_in_flight (another call
 * with this payment id is being served) waits and sends it again, backing off up to 2 s: once
 * that call has answered, the same payment is answered from its record (the same report,
 * charged once), never paid again. Gives the last answer after `waitMs`. Throws what the send
 * throws (the caller's charge is then unknown).
 * @example const answer = await sendUntilPaymentIdAnswers(() => post(paymentHeaders));
 */
export async function sendUntilPaymentIdAnswers(
  send: () => Promise<Response>,
  options: { waitMs?: number; sleep?: (ms: number) => Promise<void> } = {},
): Promise<Response> {
  const waitMs = options.waitMs ?? inFlightWaitMs;
  const sleep =
    options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  let answer = await send();
  for (
    let waitedMs = 0, stepMs = 250;
    waitedMs < waitMs && (await errorCode(answer)) === "payment_id_in_flight";
    waitedMs += stepMs, stepMs = Math.min(stepMs * 2, 2_000)
  ) {
    await sleep(stepMs);
    answer = await send();
  }
  return answer;
}
