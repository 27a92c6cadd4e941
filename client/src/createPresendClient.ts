import type { DeepReport, Report } from "@presend/shared/api/report";
import { closeChannel } from "./actions/closeChannel";
import { type CheckInput, paidCheck } from "./actions/paidCheck";
import { type ReceiptParameters, receipt } from "./actions/receipt";
import { validate } from "./actions/validate";
import type { ChannelCloseResult } from "./channels/createChannelPayer";
import { createPresendConfig, type PresendClientOptions } from "./createPresendConfig";
import type { PaidResult, ReceiptResult, ValidateResult } from "./PresendResult";

export type { CheckInput } from "./actions/paidCheck";
export type { PresendClientOptions, PresendSigner } from "./createPresendConfig";

export type PresendClient = {
  /** The free checksum pre-check (GET /validate). */
  validate(address: string): Promise<ValidateResult>;
  /** One chain, paid (POST /check). */
  check(input: CheckInput): Promise<PaidResult<Report>>;
  /** Five chains, paid (POST /deep). */
  deep(input: CheckInput): Promise<PaidResult<DeepReport>>;
  /**
   * A paid report fetched again: by settlement transaction (GET /receipts/{tx}), or by payer and
   * authorization nonce when the transaction was never learned (GET /receipts/{payer}/{nonce}).
   */
  receipt(key: ReceiptParameters): Promise<ReceiptResult>;
  /**
   * Closes this client's payment channel with the server (when `channel` is configured): what
   * was charged is claimed, the rest of the deposit goes back to the payer on chain.
   */
  closeChannel(): Promise<ChannelCloseResult>;
};

/**
 * The presend client: one attested-payment policy for every caller. Before signing it verifies
 * the payee attestation against the pinned key (pinned on first use), the signed offer, payTo,
 * price, network, asset, validity and the caps; it never follows a redirect; it says "charged:
 * unknown" unless the answer proves otherwise, then fetches the report through /receipts; it
 * reports the settlement before reading the report, and trusts a report only with a valid signature.
 * Each method is an action of `actions/` bound to one config (createPresendConfig).
 * @example
 * const presend = createPresendClient({ url, signer: privateKeyToAccount(key), pinStore: createMemoryPinStore() });
 * const result = await presend.check({ address: "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045" });
 * if (result.type === "report") console.log(result.report.verdict.headline);
 */
export function createPresendClient(options: PresendClientOptions): PresendClient {
  const config = createPresendConfig(options);
  return {
    validate: (address) => validate(config, address),
    check: (input) => paidCheck<Report>(config, "/check", input),
    deep: (input) => paidCheck<DeepReport>(config, "/deep", input),
    receipt: (key) => receipt(config, key),
    closeChannel: () => closeChannel(config),
  };
}
