/**
 * A payer's signature that is not a plain ECDSA signature of the payer could not be checked: the
 * payment chain did not answer the read that decides it (an ERC-1271 call, an ERC-6492
 * simulation). Whether it is the payer's is unknown, so it is neither taken nor refused.
 */
export class SignatureUnverifiable extends Error {
  /** Seconds the payer is asked to wait before asking again (Retry-After): a Base read times out in 3 s. */
  static readonly retryAfterSeconds = 5;
  override name = "SignatureUnverifiable";
  constructor(options?: { cause?: unknown }) {
    super("the payment chain could not be read to check the signature", options);
  }
}
