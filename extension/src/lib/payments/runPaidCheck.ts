import { x402Client, x402HTTPClient } from "@x402/core/client";
import type { PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { ExactEvmScheme } from "@x402/evm/exact/client";
import type { Address, Hex } from "viem";
import { ErrorBodySchema } from "../../../../shared/api/errors";
import { DeepReportSchema, ReportSchema } from "../../../../shared/api/report";
import { attestationExtensionKey } from "../../../../shared/attestation/attestationSchemas";
import type {
  AttestationResult,
  verifyAttestation,
} from "../../../../shared/attestation/verifyAttestation";
import { type ChainName, chains } from "../../../../shared/chains/chains";
import type { CheckOutcome, Progress } from "../messaging/protocol";
import { pinScope } from "../storage/pinScope";
import type { HistoryEntry, PinnedKeys, Route, Settings, SpendLedger } from "../storage/schemas";
import type { ValidatedItem } from "../storage/validatedItem";
import { formatUsdc } from "../ui/prices";
import type { PendingSpend } from "./createPendingSpend";
import { utcDay } from "./utcDay";

/** The page wallet as the background reaches it (through the content script and the bridge). */
export type RemoteWallet = {
  account(): Promise<Address>;
  signTypedData(typedData: {
    domain: Record<string, unknown>;
    types: Record<string, unknown>;
    primaryType: string;
    message: Record<string, unknown>;
  }): Promise<Hex>;
};

export type PaidCheckDeps = {
  fetch: typeof fetch;
  settings: () => Promise<Settings>;
  pinnedKeys: ValidatedItem<PinnedKeys>;
  ledger: ValidatedItem<SpendLedger>;
  /** Payments under way in this background, shared by every check (see createPendingSpend). */
  pending: PendingSpend;
  history: ValidatedItem<HistoryEntry[]>;
  historyLimit: number;
  wallet: RemoteWallet;
  verify: typeof verifyAttestation;
  progress: (progress: Progress) => void;
  now: () => Date;
  randomId: () => string;
};

export type PaidCheckRequest = { route: Route; address: Address; chain: ChainName };

const baseNetwork = chains.base.caip2;
const baseUsdc = chains.base.usdc.address.toLowerCase();

function refusalFor(result: Extract<AttestationResult, { type: "invalid" }>): CheckOutcome {
  const code =
    result.reason === "key_changed"
      ? "key_changed"
      : result.reason === "payto_mismatch" ||
          result.reason === "price_above_attested" ||
          result.reason === "unknown_route"
        ? "attestation_mismatch"
        : "attestation_invalid";
  return { type: "refused", code, message: result.message };
}

function walletFailure(error: unknown): CheckOutcome | null {
  const code = (error as { code?: unknown })?.code;
  if (code === "rejected")
    return { type: "rejected", message: "You declined the payment in your wallet." };
  if (code === "no_wallet") {
    return {
      type: "refused",
      code: "no_wallet",
      message: "No wallet in this tab: open the dApp page with your wallet, then try again.",
    };
  }
  return null;
}

async function errorMessage(response: Response): Promise<string> {
  const body = ErrorBodySchema.safeParse(await response.json().catch(() => null));
  return body.success ? body.data.error.message : `HTTP ${response.status}`;
}

/**
 * One paid check, fail closed at every step: ask for the 402, verify the challenge against the
 * pinned attestation, respect the daily cap, have the page wallet sign the EIP-3009
 * authorization (x402's own client builds it), pay, and record the result.
 * @example const outcome = await runPaidCheck({ route: "check", address, chain: "base" }, deps)
 */
export async function runPaidCheck(
  request: PaidCheckRequest,
  deps: PaidCheckDeps,
): Promise<CheckOutcome> {
  const { apiUrl, dailyCapUnits } = await deps.settings();
  const url = new URL(`/${request.route}`, apiUrl).toString();
  const body = JSON.stringify({ address: request.address, chain: request.chain });
  const post = (headers: Record<string, string> = {}) =>
    deps.fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    });

  deps.progress({ step: "requesting" });
  let challenge: Response;
  try {
    challenge = await post();
  } catch (cause) {
    return { type: "failed", message: `Cannot reach ${apiUrl}: ${String(cause)}`, charged: false };
  }
  if (challenge.status === 400) {
    return { type: "refused", code: "invalid_address", message: await errorMessage(challenge) };
  }
  if (challenge.status !== 402) {
    return {
      type: "failed",
      message: `Expected a payment challenge, got HTTP ${challenge.status}.`,
      charged: false,
    };
  }

  // x402's own client parses the challenge (PAYMENT-REQUIRED header, or the body).
  const http = new x402HTTPClient(new x402Client());
  let paymentRequired: PaymentRequired;
  try {
    const challengeBody = await challenge.json().catch(() => undefined);
    paymentRequired = http.getPaymentRequiredResponse(
      (name) => challenge.headers.get(name),
      challengeBody,
    );
  } catch (cause) {
    return {
      type: "refused",
      code: "unexpected_challenge",
      message: `Unreadable payment challenge: ${String(cause)}`,
    };
  }
  const requirement = paymentRequired.accepts.find(
    (r: PaymentRequirements) =>
      r.scheme === "exact" && r.network === baseNetwork && r.asset.toLowerCase() === baseUsdc,
  );
  if (!requirement) {
    return {
      type: "refused",
      code: "unexpected_challenge",
      message: "The server asks for no USDC payment on Base.",
    };
  }

  const extension = paymentRequired.extensions?.[attestationExtensionKey] as
    | { info?: unknown }
    | undefined;
  if (!extension) {
    return {
      type: "refused",
      code: "attestation_missing",
      message:
        "The payment challenge carries no payee attestation; refusing to pay an unattested payee.",
    };
  }
  // A key is trusted for the API it was first seen at; another API URL gets its own pin.
  const scope = pinScope(apiUrl);
  const pinned = (await deps.pinnedKeys.getValue())[scope] ?? null;
  const attested = await deps.verify({
    block: extension.info ?? extension,
    route: `/${request.route}`,
    payTo: requirement.payTo,
    amount: requirement.amount,
    ...(pinned ? { pinnedThumbprint: pinned.fingerprint } : {}),
    now: Math.floor(deps.now().getTime() / 1000),
  });
  if (attested.type === "invalid") return refusalFor(attested);
  if (!pinned) {
    // Trust on first use (spec §5.6): the key of the first valid attestation is kept.
    await deps.pinnedKeys.update((pins) => ({
      ...pins,
      [scope]: {
        jwk: attested.block.key,
        fingerprint: attested.thumbprint,
        pinnedAt: deps.now().toISOString(),
        apiUrl: scope,
      },
    }));
  }

  const amount = BigInt(requirement.amount);
  const today = utcDay(deps.now());
  let ledger: SpendLedger;
  try {
    ledger = await deps.ledger.getValue();
  } catch {
    // Reading an unreadable ledger as $0 would let anything that corrupts it lift the cap.
    return {
      type: "refused",
      code: "ledger_unreadable",
      message:
        "The record of today's spending is unreadable, so the daily cap cannot be enforced. Reset it in the options to pay again.",
    };
  }
  // Checks still under way count as spent: two started together cannot both fit under the cap.
  const spent = (ledger.day === today ? BigInt(ledger.spentUnits) : 0n) + deps.pending.total();
  if (spent + amount > BigInt(dailyCapUnits)) {
    return {
      type: "refused",
      code: "cap_reached",
      message: `Daily spending cap reached: ${formatUsdc(spent)} of ${formatUsdc(BigInt(dailyCapUnits))} spent today; this check costs ${formatUsdc(amount)}. Raise the cap in the options.`,
    };
  }
  // Held from the cap check on (no await in between) until the ledger counts it, or until the
  // check ends without paying.
  const release = deps.pending.hold(amount);
  try {
    deps.progress({
      step: "waiting-wallet",
      amount: requirement.amount,
      payTo: requirement.payTo as Address,
      keyFingerprint: attested.thumbprint,
      keyPinnedNow: !pinned,
    });
    return await payAndRecord(
      request,
      { http, paymentRequired, requirement, amount, today, post, release },
      deps,
    );
  } finally {
    release();
  }
}

/** A challenge that passed every check: attested payee and price, under the daily cap. */
type VerifiedChallenge = {
  http: x402HTTPClient;
  paymentRequired: PaymentRequired;
  /** The one requirement that was verified: USDC on Base, to the attested payee. */
  requirement: PaymentRequirements;
  amount: bigint;
  /** The UTC day the amount counts for. */
  today: string;
  post: (headers: Record<string, string>) => Promise<Response>;
  /** Ends holding `amount` against the cap (see PendingSpend). */
  release: () => void;
};

// The second half of a paid check: the wallet signs, the ledger counts, the API answers, the
// history keeps the report.
async function payAndRecord(
  request: PaidCheckRequest,
  challenge: VerifiedChallenge,
  deps: PaidCheckDeps,
): Promise<CheckOutcome> {
  const { http, paymentRequired, requirement, amount, today, post } = challenge;
  let headers: Record<string, string>;
  try {
    const address = await deps.wallet.account();
    const client = new x402Client().register(
      baseNetwork,
      new ExactEvmScheme({
        address,
        signTypedData: (typedData) => deps.wallet.signTypedData(typedData),
      }),
    );
    // Only the verified requirement is offered to the client, so it cannot pick another one.
    const payload = await new x402HTTPClient(client).createPaymentPayload({
      ...paymentRequired,
      accepts: [requirement],
    });
    headers = http.encodePaymentSignatureHeader(payload);
  } catch (error) {
    return (
      walletFailure(error) ?? {
        type: "failed",
        message: `Signing failed: ${String(error)}`,
        charged: false,
      }
    );
  }

  deps.progress({ step: "paying" });
  // Counted before sending: if the answer is lost, the payment may have settled (fail closed).
  await deps.ledger.update((current) => ({
    day: today,
    spentUnits: Number((current.day === today ? BigInt(current.spentUnits) : 0n) + amount),
  }));
  // The ledger counts it now; holding it as well would count it twice.
  challenge.release();
  const refund = () =>
    deps.ledger.update((current) => ({
      day: current.day,
      spentUnits:
        current.day === today
          ? Math.max(0, current.spentUnits - Number(amount))
          : current.spentUnits,
    }));

  deps.progress({ step: "checking" });
  let paid: Response;
  try {
    paid = await post(headers);
  } catch (cause) {
    return {
      type: "failed",
      message: `The paid request failed: ${String(cause)}`,
      charged: "unknown",
    };
  }
  if (!paid.ok) {
    // A failed handler means settlement was skipped (DESIGN §4): nothing was charged.
    await refund();
    const reason =
      paid.status === 402 ? "The server did not accept the payment." : await errorMessage(paid);
    return { type: "failed", message: reason, charged: false };
  }
  const schema = request.route === "deep" ? DeepReportSchema : ReportSchema;
  const report = schema.safeParse(await paid.json().catch(() => null));
  if (!report.success) {
    return { type: "failed", message: "The server's report is malformed.", charged: true };
  }
  let transaction: string | null = null;
  try {
    transaction =
      http.getPaymentSettleResponse((name) => paid.headers.get(name)).transaction ?? null;
  } catch {
    transaction = null;
  }
  const entry: HistoryEntry = {
    id: deps.randomId(),
    address: report.data.address as Address,
    chain: request.chain,
    route: request.route,
    level: report.data.verdict.level,
    headline: report.data.verdict.headline,
    checkedAt: deps.now().toISOString(),
    amount: requirement.amount,
    payTo: requirement.payTo as Address,
    transaction,
    report: report.data,
  };
  await deps.history.update((list) => [entry, ...list].slice(0, deps.historyLimit));
  return { type: "report", entry };
}
