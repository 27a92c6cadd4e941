import type { MessageFailure } from "./protocol";

/** A failure reported by the other side of a message (or by the protocol itself). */
export class MessageError extends Error {
  override readonly name = "MessageError";
  readonly code: MessageFailure["code"];

  constructor(failure: MessageFailure, options?: { cause?: unknown }) {
    super(failure.message, options);
    this.code = failure.code;
  }

  toFailure(): MessageFailure {
    return { code: this.code, message: this.message };
  }
}
