import { PresendError, type PresendErrorOptions } from "./PresendError";

/**
 * Start-up cannot go on: a setting, a file it names or a service it needs is wrong.
 * Narrower errors of this kind extend it with their own stable code.
 * @example throw new ConfigurationError("…", { cause });
 */
export class ConfigurationError<
  Code extends string = "invalid_configuration",
> extends PresendError<Code> {
  override name = "ConfigurationError";
  constructor(shortMessage: string, options: PresendErrorOptions & { code?: Code } = {}) {
    super(options.code ?? ("invalid_configuration" as Code), shortMessage, options);
  }
}
