import { PresendError, type PresendErrorOptions } from "./PresendError";

/**
 * Something presend called (an RPC endpoint, a directory, a wallet) failed or answered nonsense.
 * Narrower errors of this kind extend it with their own stable code.
 * @example throw new UpstreamError("…", { cause });
 */
export class UpstreamError<Code extends string = "upstream_failed"> extends PresendError<Code> {
  override name = "UpstreamError";
  constructor(shortMessage: string, options: PresendErrorOptions & { code?: Code } = {}) {
    super(options.code ?? ("upstream_failed" as Code), shortMessage, options);
  }
}
