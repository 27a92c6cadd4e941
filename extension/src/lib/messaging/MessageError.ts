import { PresendError } from "@presend/shared/errors/PresendError";
import type { MessageFailure } from "./protocol";

/** A failure reported by the other side of a message (or by the protocol itself). */
export class MessageError extends PresendError<MessageFailure["code"]> {
  override name = "MessageError";

  constructor(failure: MessageFailure, options?: { cause?: unknown }) {
    super(failure.code, failure.message, options);
  }

  toFailure(): MessageFailure {
    return { code: this.code, message: this.message };
  }
}
