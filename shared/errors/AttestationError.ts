import { PresendError, type PresendErrorOptions } from "./PresendError";

/**
 * The attestation key, or something signed with it, cannot be used.
 * Narrower errors of this kind extend it with their own stable code.
 * @example throw new AttestationError("…", { cause });
 */
export class AttestationError<
  Code extends string = "attestation_unusable",
> extends PresendError<Code> {
  override name = "AttestationError";
  constructor(shortMessage: string, options: PresendErrorOptions & { code?: Code } = {}) {
    super(options.code ?? ("attestation_unusable" as Code), shortMessage, options);
  }
}
