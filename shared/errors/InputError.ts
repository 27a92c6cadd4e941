import { PresendError, type PresendErrorOptions } from "./PresendError";

/**
 * A value from outside (a CLI argument, a request field, a stored value) is not what it must be.
 * Narrower errors of this kind extend it with their own stable code.
 * @example throw new InputError("…", { cause });
 */
export class InputError<Code extends string = "invalid_input"> extends PresendError<Code> {
  override name = "InputError";
  constructor(shortMessage: string, options: PresendErrorOptions & { code?: Code } = {}) {
    super(options.code ?? ("invalid_input" as Code), shortMessage, options);
  }
}
