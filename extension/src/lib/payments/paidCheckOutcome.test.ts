import type { PaidResult, Settlement } from "@presend/client";
import type { DeepReport, Report } from "@presend/shared/api/report";
import { PaymentError } from "@presend/shared/errors/PaymentError";
import { describe, expect, it } from "vitest";
import { MessageError } from "../messaging/MessageError";
import { exampleHistoryEntry } from "../storage/exampleHistoryEntry";
import { memoryItem } from "../storage/memoryItem";
import type { HistoryEntry, PendingRecovery } from "../storage/schemas";
import { createPendingRecovery } from "./createPendingRecovery";
import {
  badSignatureMessage,
  paidCheckOutcome,
  signedTooLateMessage,
  walletRefusal,
} from "./paidCheckOutcome";

const payer = "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266";
const payTo = "0x70997970C51812dc3A010C7d01b50e0d17dc79C8";
const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const now = new Date("2025-06-01T12:00:00Z");
const nonce = `0x${"12".repeat(32)}` as const;
const { report } = exampleHistoryEntry({ address, checkedAt: now });
const settlement: Settlement = {
  transaction: `0x${"ab".repeat(32)}`,
  network: "eip155:8453",
  payer,
  amount: "10000",
  payTo,
};

function setup(
  options: { ledgerBroken?: boolean; accountShared?: boolean; signingError?: unknown } = {},
) {
  const history = memoryItem<HistoryEntry[]>([]);
  const recoveries = memoryItem<PendingRecovery[]>([]);
  const recovery = createPendingRecovery(
    { apiUrl: "http://api.test", route: "check", address, chain: "base" },
    { recoveries, randomId: () => "r1", now: () => now },
  );
  const outcome = (result: PaidResult<Report | DeepReport>) =>
    paidCheckOutcome(result, {
      request: { route: "check", chain: "base" },
      recovery,
      history,
      historyLimit: 50,
      ledgerBroken: options.ledgerBroken ?? false,
      accountShared: options.accountShared ?? true,
      ...(options.signingError !== undefined && { signingError: options.signingError }),
      now: () => now,
      randomId: () => "entry-1",
    });
  return { history, recoveries, recovery, outcome };
}

const signedTransfer = {
  primaryType: "TransferWithAuthorization",
  message: { from: payer, to: payTo, value: 10_000n, nonce },
};

describe("paidCheckOutcome", () => {
  it("files a report in the history and forgets its pending recovery", async () => {
    const { history, recoveries, recovery, outcome } = setup();
    await recovery.recordSigned(signedTransfer);
    const result = await outcome({
      type: "report",
      report,
      settlement,
      signature: "verified",
      receipt: "verified",
      recovered: false,
      charged: true,
      paymentId: null,
    });
    expect(result).toMatchObject({
      type: "report",
      entry: { transaction: settlement.transaction },
    });
    expect(history.value()).toHaveLength(1);
    expect(recoveries.value()).toEqual([]);
  });

  it("names no transaction for a report paid over a channel (its claim comes later)", async () => {
    const { history, outcome } = setup();
    await outcome({
      type: "report",
      report,
      settlement: { ...settlement, transaction: nonce, viaChannel: true },
      signature: "verified",
      receipt: null,
      recovered: false,
      charged: true,
      paymentId: "chan_x",
    });
    expect(history.value()[0]?.transaction).toBeNull();
  });

  it("calls a cap refusal from an unreadable ledger by its own code", async () => {
    const refusal = {
      type: "refused",
      code: "cap_reached",
      message: "cap",
      charged: false,
      paymentId: null,
    } as const;
    expect(await setup().outcome(refusal)).toMatchObject({ code: "cap_reached" });
    expect(await setup({ ledgerBroken: true }).outcome(refusal)).toMatchObject({
      code: "ledger_unreadable",
    });
    // A cap whose refusal says so itself (the client's code) is called the same.
    expect(await setup().outcome({ ...refusal, code: "ledger_unreadable" })).toMatchObject({
      code: "ledger_unreadable",
    });
    expect(await setup().outcome({ ...refusal, code: "payto_mismatch" })).toMatchObject({
      code: "attestation_mismatch",
    });
  });

  it("tells a declined connect from a declined payment, and no answer from a refusal", async () => {
    const declined = {
      type: "not_charged",
      code: "signing_failed",
      status: null,
      message: "x",
      charged: false,
      paymentId: null,
      cause: new MessageError({ code: "rejected", message: "no" }),
    } as const;
    expect(await setup().outcome(declined)).toEqual({
      type: "rejected",
      message: "You declined the payment in your wallet.",
    });
    expect(await setup({ accountShared: false }).outcome(declined)).toEqual({
      type: "rejected",
      message: "You declined to connect your wallet to this site.",
    });
    const { cause: _cause, ...unsigned } = declined;
    const unreachable = { ...unsigned, code: "unreachable" };
    expect(await setup().outcome(unreachable)).toEqual({
      type: "failed",
      message: "presend's server could not be reached. Check the API address in the settings.",
      charged: false,
    });
    // Nothing left this browser: said as it is, not blamed on the server's address.
    const notSent = { ...unsigned, code: "not_sent", message: "Not sent: storage full" };
    expect(await setup().outcome(notSent)).toEqual({
      type: "failed",
      message: "Not sent: storage full",
      charged: false,
    });
    expect(await setup().outcome({ ...unreachable, status: 400 })).toMatchObject({
      type: "refused",
      code: "invalid_address",
    });
  });

  it("keeps a voucher whose answer was lost as a pending recovery under its record nonce", async () => {
    const { recoveries, recovery, outcome } = setup();
    // Written before the voucher was sent (the channel payer's beforeSend).
    await recovery.recordSent({ payer, nonce, amount: "10000", payTo });
    const result = await outcome({
      type: "unrecovered",
      message: "lost",
      charged: "unknown",
      settlement: null,
      authorization: { payer, nonce, amount: "10000", payTo },
      recover: "GET /receipts/…",
      paymentId: "chan_x",
    });
    expect(result).toEqual({
      type: "failed",
      message: "The answer to the payment was lost.",
      charged: "unknown",
      recoveryId: "r1",
    });
    expect(recoveries.value()).toMatchObject([
      { id: "r1", payer, nonce, lastAttempt: { state: "unknown", message: "lost" } },
    ]);
  });

  it("keeps the recovery of a forged report, which is never filed", async () => {
    const { history, recoveries, recovery, outcome } = setup();
    await recovery.recordSigned(signedTransfer);
    const result = await outcome({
      type: "forged",
      message: "bad signature",
      charged: true,
      settlement,
      report,
      paymentId: null,
    });
    expect(result).toMatchObject({ type: "forged", charged: true, recoveryId: "r1" });
    expect(history.value()).toEqual([]);
    expect(recoveries.value()[0]).toMatchObject({
      transaction: settlement.transaction,
      lastAttempt: { state: "forged" },
    });
  });

  it("reads a failed deposit signature from the signer when the result carries no cause", async () => {
    const failed = {
      type: "not_charged",
      code: "signing_failed",
      status: null,
      message: "Signing failed",
      charged: false,
      paymentId: null,
    } as const;
    const overCap = new PaymentError("Over the cap. A channel deposit of $0.05 was asked.", {
      code: "cap_reached",
    });
    expect(await setup({ signingError: overCap }).outcome(failed)).toEqual({
      type: "refused",
      code: "cap_reached",
      message: "Over the cap. A channel deposit of $0.05 was asked.",
    });
    const unexpected = new PaymentError("The wallet was asked to sign Permit.", {
      code: "unexpected_typed_data",
    });
    expect(await setup({ signingError: unexpected }).outcome(failed)).toEqual({
      type: "refused",
      code: "unexpected_challenge",
      message: "The wallet was asked to sign Permit.",
    });
    const declined = new MessageError({ code: "rejected", message: "no" });
    expect(await setup({ signingError: declined }).outcome(failed)).toEqual({
      type: "rejected",
      message: "You declined the payment in your wallet.",
    });
    // A "no" to the switch to Base is not a "no" to a payment the person never saw.
    const noSwitch = new MessageError({ code: "switch_declined", message: "no switch" });
    expect(await setup({ signingError: noSwitch }).outcome(failed)).toEqual({
      type: "rejected",
      message:
        "You declined to switch your wallet to Base. presend is paid in USDC on Base: your wallet switches there to sign and back afterwards. Check again and accept the switch to pay.",
    });
  });

  it("tells a payer short of USDC what to do: USDC for an exact payment, a smaller deposit for a channel's", async () => {
    const refused = (code: string) =>
      ({
        type: "not_charged",
        code,
        status: 402,
        message: `The server refused the payment (${code}): nothing was charged.`,
        charged: false,
        paymentId: null,
      }) as const;
    const exact = await setup().outcome(refused("invalid_exact_evm_insufficient_balance"));
    expect(exact).toEqual({
      type: "failed",
      message:
        "Your wallet's account does not hold enough USDC on Base for this payment. Add USDC on Base to it, then check again.",
      charged: false,
    });
    const deposit = await setup().outcome(
      refused("invalid_batch_settlement_evm_insufficient_balance"),
    );
    expect(deposit).toEqual({
      type: "failed",
      message:
        "Your wallet's account does not hold enough USDC on Base for the channel deposit. Set a smaller deposit in the settings (0 pays each check on its own), or add USDC on Base, then check again.",
      charged: false,
    });
  });

  it("tells a wallet signature that did not pay apart from a setting to fix: what happened, what to do", async () => {
    for (const code of [
      "invalid_exact_evm_signature",
      "invalid_exact_evm_failed_to_parse_signature",
      "invalid_batch_settlement_evm_receive_authorization_signature",
    ]) {
      const { outcome, recovery, recoveries } = setup();
      await recovery.recordSigned(signedTransfer);
      const shown = await outcome({
        type: "not_charged",
        code,
        status: 402,
        message: `The server refused the payment (${code}): nothing was charged.`,
        charged: false,
        paymentId: null,
      });
      expect(shown).toEqual({
        type: "failed",
        message: badSignatureMessage,
        charged: false,
        code: "wallet_signature",
      });
      expect(shown.type === "failed" && shown.message).not.toContain(code);
      expect(recoveries.value()).toEqual([]);
    }
    const refusedHere = await setup({
      signingError: new PaymentError("Not a signature.", { code: "invalid_wallet_signature" }),
    }).outcome({
      type: "not_charged",
      code: "signing_failed",
      status: null,
      message: "Signing failed: Not a signature.",
      charged: false,
      paymentId: null,
    });
    expect(refusedHere).toMatchObject({ code: "wallet_signature", charged: false });
  });

  it("tells a smart account not deployed on Base (ERC-6492, its factory not taken) to deploy it first or use another account, not the code", async () => {
    for (const code of [
      "eip6492_factory_not_allowed",
      "invalid_batch_settlement_evm_eip6492_factory_not_allowed",
    ]) {
      const shown = await setup().outcome({
        type: "not_charged",
        code,
        status: 402,
        message: `The server refused the payment (${code}): nothing was charged.`,
        charged: false,
        paymentId: null,
      });
      expect(shown).toMatchObject({ type: "failed", charged: false, code: "payment_refused" });
      if (shown.type !== "failed") throw new Error("not failed");
      expect(shown.message).toContain("smart account that is not deployed on Base yet");
      expect(shown.message).toContain("Make one transaction with this account on Base first");
      expect(shown.message).not.toContain(code);
    }
  });

  it("tells any other x402 refusal once, with the server's reason, and offers no settings", async () => {
    const code = "invalid_exact_evm_transaction_simulation_failed";
    const shown = await setup().outcome({
      type: "not_charged",
      code,
      status: 402,
      message: `The server refused the payment (${code}): nothing was charged.`,
      charged: false,
      paymentId: null,
    });
    expect(shown).toEqual({
      type: "failed",
      message: `presend's server refused the payment before taking it (its reason: ${code}).`,
      charged: false,
      code: "payment_refused",
    });
  });

  it("tells a signature given too late (a slow hardware wallet) as such, refused here or by the server", async () => {
    const late = {
      type: "failed",
      message: signedTooLateMessage,
      charged: false,
      code: "wallet_signature",
    };
    const code = "invalid_exact_evm_payload_authorization_valid_before";
    expect(
      await setup().outcome({
        type: "not_charged",
        code,
        status: 402,
        message: `The server refused the payment (${code}): nothing was charged.`,
        charged: false,
        paymentId: null,
      }),
    ).toEqual(late);
    expect(
      await setup({
        signingError: new PaymentError("Too late.", { code: "signature_expired" }),
      }).outcome({
        type: "not_charged",
        code: "signing_failed",
        status: null,
        message: "Signing failed: Too late.",
        charged: false,
        paymentId: null,
      }),
    ).toEqual(late);
  });

  it("tells a wallet that never answered apart from no wallet: nothing paid, what to do", async () => {
    const silent = new MessageError({ code: "no_answer", message: "The wallet did not answer." });
    const shown = await setup({ signingError: silent }).outcome({
      type: "not_charged",
      code: "signing_failed",
      status: null,
      message: "Signing failed: The wallet did not answer.",
      charged: false,
      paymentId: null,
    });
    expect(shown).toMatchObject({ type: "failed", charged: false, code: "wallet_silent" });
    expect(shown.type === "failed" && shown.message).toContain("did not answer");
    expect(walletRefusal(silent, false)).toMatchObject({ code: "wallet_silent" });
  });

  it("tells a wallet's own error by what it means for the person, with the wallet's words, and offers no settings", async () => {
    const cases = [
      ["wallet_error", "Ledger device: UNKNOWN_ERROR (0x6a80)", "a hardware wallet: unlocked"],
      ["wallet_unauthorized", "Not authorized.", "Allow this site for the account"],
      ["wallet_unsupported", "Method not supported", "with another wallet"],
      ["wallet_busy", "Already processing eth_requestAccounts.", "finish or reject that request"],
    ] as const;
    for (const [code, said, advice] of cases) {
      const error = new MessageError({ code, message: said });
      const shown = await setup({ signingError: error }).outcome({
        type: "not_charged",
        code: "signing_failed",
        status: null,
        message: `Signing failed: ${said}`,
        charged: false,
        paymentId: null,
      });
      expect(shown).toMatchObject({ type: "failed", charged: false, code: "wallet_error" });
      expect(shown.type === "failed" && shown.message).toContain(`(it said: "${said}")`);
      expect(shown.type === "failed" && shown.message).toContain(advice);
    }
  });
});
