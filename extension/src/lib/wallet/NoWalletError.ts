import { UpstreamError } from "@presend/shared/errors/UpstreamError";

/** The page has no EIP-6963 wallet to read or sign with. */
export class NoWalletError extends UpstreamError<"no_wallet"> {
  override name = "NoWalletError";
  constructor() {
    super("No wallet in this page.", { code: "no_wallet" });
  }
}
