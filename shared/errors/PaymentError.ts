import { PresendError, type PresendErrorOptions } from "./PresendError";

/**
 * A payment could not be taken, recorded or settled as the rules require.
 * Narrower errors of this kind extend it with their own stable code.
 * @example throw new PaymentError("…", { cause });
 */
export class PaymentError<Code extends string = "payment_failed"> extends PresendError<Code> {
  override name = "PaymentError";
  constructor(shortMessage: string, options: PresendErrorOptions & { code?: Code } = {}) {
    super(options.code ?? ("payment_failed" as Code), shortMessage, options);
  }
}
