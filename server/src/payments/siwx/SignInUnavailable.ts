/**
 * The sign-in state (the fleet's shared nonce store) cannot answer: a sign-in is refused rather
 * than taken without knowing whether its message was already used.
 */
export class SignInUnavailable extends Error {
  override name = "SignInUnavailable";
  constructor(options?: { cause?: unknown }) {
    super("the sign-in state does not answer", options);
  }
}
