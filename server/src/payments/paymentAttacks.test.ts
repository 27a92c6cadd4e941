import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { chains, nativeUsdcDomain } from "@presend/shared/chains/chains";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { authorizationTypes, toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { x402Client, x402HTTPClient } from "@x402/fetch";
import { type Address, keccak256, toHex } from "viem";
import { generatePrivateKey, type PrivateKeyAccount, privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { openSqlitePaymentRecords } from "../paymentRecords/openSqlitePaymentRecords";
import { type PaidStack, startPaidStack } from "./testing/startPaidStack";

// Every attack must end in a 402 that says why, with no report and no money moved.
// This file's payer, facilitator and payTo: a payment lane of the run's shared world, so its
// balances and its facilitator's transactions are its own while other files pay beside it.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;

function clientFor(account: PrivateKeyAccount) {
  const client = new x402Client();
  registerExactEvmScheme(client, { signer: toClientEvmSigner(account) });
  return client;
}

describe("payment attacks end in 402 with a reason, no report, no settlement", () => {
  let stack: PaidStack;
  let balances: bigint[];
  let receiptCount: number;

  const post = (path: string, headers: Record<string, string> = {}) =>
    stack.app.request(path, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ address: target }),
    });
  const challenge = async (path: string): Promise<PaymentRequired> =>
    decodePaymentRequiredHeader((await post(path)).headers.get("payment-required") ?? "");
  const currentBalances = () =>
    Promise.all([
      stack.usdcBalance(payer.address),
      stack.usdcBalance(stack.world.accounts.payTo.address),
    ]);
  /** Signs `tampered` terms with the official client but claims the server's own terms. */
  const signTampered = async (
    path: string,
    tamper: (requirements: PaymentRequirements) => PaymentRequirements,
    account = payer,
  ): Promise<PaymentPayload> => {
    const required = await challenge(path);
    const original = required.accepts[0] as PaymentRequirements;
    // The attacker's client: no spend controls, it signs whatever terms it is given.
    const payload = await clientFor(account)
      .setSpendControls(false)
      .createPaymentPayload({
        ...required,
        accepts: [tamper(original)],
      });
    return { ...payload, accepted: original };
  };
  const expectRefused = async (response: Response, reason: RegExp) => {
    expect(response.status).toBe(402);
    expect(response.headers.get("payment-response")).toBeNull();
    const body = await response.json();
    expect(body.error).toMatch(reason);
    expect(body).not.toHaveProperty("verdict");
    expect(body).not.toHaveProperty("report");
    expect(decodePaymentRequiredHeader(response.headers.get("payment-required") ?? "").error).toBe(
      body.error,
    );
    expect(await currentBalances()).toEqual(balances);
    expect(await stack.records.count()).toBe(receiptCount);
  };

  beforeAll(async () => {
    stack = await startPaidStack({ world: shared.world });
  });
  afterAll(() => stack?.stop());
  beforeEach(async () => {
    balances = await currentBalances();
    receiptCount = await stack.records.count();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it("replayedPayment: a settled authorization sent again is refused at once (409), the engine not run", async () => {
    const payload = await clientFor(payer).createPaymentPayload(await challenge("/check"));
    const header = encodePaymentSignatureHeader(payload);
    const first = await post("/check", { "PAYMENT-SIGNATURE": header });
    expect(first.status).toBe(200);
    balances = await currentBalances();
    receiptCount = await stack.records.count();
    const runs = vi.spyOn(stack.engine, "check");
    for (const name of ["PAYMENT-SIGNATURE", "X-Payment"]) {
      const again = await post("/check", { [name]: header });
      expect(again.status).toBe(409);
      const body = await again.json();
      expect(body).toMatchObject({ error: { code: "authorization_used" } });
      expect(body.error.message).toContain(`/receipts/${payer.address.toLowerCase()}/`);
    }
    expect(runs).not.toHaveBeenCalled();
    expect(await currentBalances()).toEqual(balances);
    expect(await stack.records.count()).toBe(receiptCount);
  });

  it("replayedAcrossServers: an authorization already used on chain but unknown here is refused by the facilitator", async () => {
    const payload = await clientFor(payer).createPaymentPayload(await challenge("/check"));
    const header = encodePaymentSignatureHeader(payload);
    expect((await post("/check", { "PAYMENT-SIGNATURE": header })).status).toBe(200);
    // Another server with the same keys but no record of it is offered the same authorization.
    const other = await startPaidStack({
      world: stack.world,
      dataDir: stack.dataDir,
      records: openSqlitePaymentRecords(":memory:"),
    });
    try {
      balances = await currentBalances();
      const response = await other.app.request("/check", {
        method: "POST",
        headers: { "content-type": "application/json", "PAYMENT-SIGNATURE": header },
        body: JSON.stringify({ address: target }),
      });
      expect(response.status).toBe(402);
      expect((await response.json()).error).toBe("invalid_exact_evm_nonce_already_used");
      expect(await other.records.count()).toBe(0);
      expect(await currentBalances()).toEqual(balances);
    } finally {
      await other.stop();
    }
    receiptCount = await stack.records.count();
  });

  it("oneAuthorizationManyRuns: one payment sent 20 times at once with different addresses buys one engine run", async () => {
    const payload = await clientFor(payer).createPaymentPayload(await challenge("/check"));
    const header = encodePaymentSignatureHeader(payload);
    const runs = vi.spyOn(stack.engine, "check");
    const addresses = [
      target,
      ...Array.from({ length: 19 }, () => privateKeyToAccount(generatePrivateKey()).address),
    ];
    const answers = await Promise.all(
      addresses.map((address) =>
        stack.app.request("/check", {
          method: "POST",
          headers: { "content-type": "application/json", "PAYMENT-SIGNATURE": header },
          body: JSON.stringify({ address }),
        }),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(19);
    for (const answer of answers.filter((a) => a.status === 409)) {
      expect((await answer.json()).error.code).toMatch(/^authorization_(in_flight|used)$/);
    }
    expect(runs).toHaveBeenCalledTimes(1);
    const [payerBefore = 0n, payToBefore = 0n] = balances;
    expect(await currentBalances()).toEqual([payerBefore - 10_000n, payToBefore + 10_000n]);
    expect(await stack.records.count()).toBe(receiptCount + 1);
    receiptCount += 1;
  });

  it("foreverAuthorization: an authorization valid until 2100 is refused before verification", async () => {
    const verify = vi.spyOn(stack.payments.facilitator, "verify");
    const payload = await signTampered("/check", (r) => ({
      ...r,
      maxTimeoutSeconds: 4_102_444_800 - Math.floor(Date.now() / 1000),
    }));
    await expectRefused(
      await post("/check", { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payload) }),
      /^authorization_valid_too_long$/,
    );
    expect(verify).not.toHaveBeenCalled();
  });

  /** Signs an EIP-3009 authorization by hand: the official client only signs sane windows. */
  const signWindow = async (window: { validAfter: bigint; validBefore: bigint }, label: string) => {
    const required = await challenge("/check");
    const accepted = required.accepts[0] as PaymentRequirements;
    const authorization = {
      from: payer.address,
      to: accepted.payTo as Address,
      value: BigInt(accepted.amount),
      ...window,
      nonce: keccak256(toHex(label)),
    };
    const signature = await payer.signTypedData({
      domain: {
        ...nativeUsdcDomain,
        chainId: 8453,
        verifyingContract: accepted.asset as Address,
      },
      types: authorizationTypes,
      primaryType: "TransferWithAuthorization",
      message: authorization,
    });
    const payload: PaymentPayload = {
      x402Version: 2,
      resource: required.resource,
      accepted,
      extensions: required.extensions,
      payload: {
        signature,
        authorization: {
          ...authorization,
          value: authorization.value.toString(),
          validAfter: authorization.validAfter.toString(),
          validBefore: authorization.validBefore.toString(),
        },
      },
    };
    return encodePaymentSignatureHeader(payload);
  };
  const nowSeconds = () => BigInt(Math.floor(Date.now() / 1000));

  it("maxUintAuthorization: an authorization valid until 2^256-1 is refused before verification", async () => {
    const header = await signWindow(
      { validAfter: 0n, validBefore: 2n ** 256n - 1n },
      "maxUintAuthorization",
    );
    await expectRefused(
      await post("/check", { "PAYMENT-SIGNATURE": header }),
      /^authorization_valid_too_long$/,
    );
  });

  it("futureAuthorization: an authorization that only becomes valid in an hour is refused", async () => {
    const header = await signWindow(
      { validAfter: nowSeconds() + 3600n, validBefore: nowSeconds() + 3660n },
      "futureAuthorization",
    );
    await expectRefused(
      await post("/check", { "PAYMENT-SIGNATURE": header }),
      /^authorization_not_yet_valid$/,
    );
  });

  it("boundedAuthorization: a hand-signed authorization inside the window is paid normally", async () => {
    const header = await signWindow(
      { validAfter: 0n, validBefore: nowSeconds() + 60n },
      "boundedAuthorization",
    );
    const response = await post("/check", { "PAYMENT-SIGNATURE": header });
    expect(response.status).toBe(200);
    expect(await stack.records.count()).toBe(receiptCount + 1);
    receiptCount += 1;
  });

  it("amountTooLow: an authorization for 1 unit claiming the 10000 price is refused", async () => {
    const payload = await signTampered("/check", (r) => ({ ...r, amount: "1" }));
    await expectRefused(
      await post("/check", { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payload) }),
      /^invalid_exact_evm_payload_authorization_value_mismatch$/,
    );
  });

  it("wrongPayTo: an authorization paying another address is refused", async () => {
    const elsewhere = privateKeyToAccount(generatePrivateKey()).address;
    const payload = await signTampered("/check", (r) => ({ ...r, payTo: elsewhere }));
    await expectRefused(
      await post("/check", { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payload) }),
      /^invalid_exact_evm_recipient_mismatch$/,
    );
  });

  it("wrongAsset: an authorization over another token's domain (USDT) is refused", async () => {
    const payload = await signTampered("/check", (r) => ({
      ...r,
      asset: chains.base.usdt.address,
    }));
    await expectRefused(
      await post("/check", { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payload) }),
      /^invalid_exact_evm_signature$/,
    );
  });

  it("wrongAssetClaimed: a payment that names another asset matches no requirement", async () => {
    const payload = await signTampered("/check", (r) => ({
      ...r,
      asset: chains.base.usdt.address,
    }));
    const honest = {
      ...payload,
      accepted: { ...payload.accepted, asset: chains.base.usdt.address },
    };
    await expectRefused(
      await post("/check", { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(honest) }),
      /^No matching payment requirements$/,
    );
  });

  it("wrongNetwork: an authorization signed for Ethereum (chain id 1) is refused", async () => {
    const payload = await signTampered("/check", (r) => ({ ...r, network: "eip155:1" }));
    await expectRefused(
      await post("/check", { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payload) }),
      /^invalid_exact_evm_signature$/,
    );
    const claimed = { ...payload, accepted: { ...payload.accepted, network: "eip155:1" as const } };
    await expectRefused(
      await post("/check", { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(claimed) }),
      /^No matching payment requirements$/,
    );
  });

  it("expiredAuthorization: an authorization whose validBefore has passed is refused", async () => {
    const required = await challenge("/check");
    const twoHoursAgo = Date.now() - 2 * 3600 * 1000;
    vi.spyOn(Date, "now").mockReturnValue(twoHoursAgo);
    const payload = await clientFor(payer).createPaymentPayload(required);
    vi.restoreAllMocks();
    await expectRefused(
      await post("/check", { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payload) }),
      /^invalid_exact_evm_payload_authorization_valid_before$/,
    );
  });

  it("signatureFromAnotherKey: an authorization from the payer signed by a stranger is refused", async () => {
    const stranger = privateKeyToAccount(generatePrivateKey());
    const forged = await signTampered("/check", (r) => r, stranger);
    const payload = forged.payload as { authorization: { from: string } };
    const claimed = {
      ...forged,
      payload: {
        ...forged.payload,
        authorization: { ...payload.authorization, from: payer.address },
      },
    };
    await expectRefused(
      await post("/check", { "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(claimed) }),
      /^invalid_exact_evm_signature$/,
    );
  });

  it("checkPaymentSentToDeep: a /check payment (10000) does not buy a /deep report", async () => {
    const payload = await clientFor(payer).createPaymentPayload(await challenge("/check"));
    const response = await stack.app.request("/deep", {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "PAYMENT-SIGNATURE": encodePaymentSignatureHeader(payload),
      },
      body: JSON.stringify({ address: target }),
    });
    await expectRefused(response, /^No matching payment requirements$/);
  });

  it("garbageHeader: a payment header that is not base64 JSON is refused", async () => {
    await expectRefused(
      await post("/check", { "PAYMENT-SIGNATURE": "not a payment!" }),
      /^invalid_payment_header$/,
    );
    await expectRefused(
      await post("/check", { "X-Payment": btoa("[1,2,3") }),
      /^invalid_payment_header$/,
    );
  });

  // A version 1 payload that names `accepted` terms went through the official middleware to the
  // facilitator, which has no version 1 scheme and threw: a 503 facilitator_unavailable that
  // asks for a retry which can never pass. Every version but 2 is refused with its own reason.
  it("otherX402Version: a version 1 payment, or one relabelled 1 or 3, is refused before verification", async () => {
    const verify = vi.spyOn(stack.payments.facilitator, "verify");
    const required = await challenge("/check");
    const terms = required.accepts[0] as PaymentRequirements;
    // A version 1 server's 402 (its terms in the body) naming these terms: the official client
    // still reads and pays those, with its version 1 scheme.
    const v1Client = new x402HTTPClient(clientFor(payer));
    const v1Terms = v1Client.getPaymentRequiredResponse(() => null, {
      x402Version: 1,
      error: "",
      accepts: [
        {
          scheme: "exact",
          network: "base",
          maxAmountRequired: terms.amount,
          resource: required.resource.url,
          description: "",
          mimeType: "application/json",
          payTo: terms.payTo,
          maxTimeoutSeconds: terms.maxTimeoutSeconds,
          asset: terms.asset,
          extra: terms.extra,
        },
      ],
    });
    const v1Payload = await v1Client.createPaymentPayload(v1Terms);
    expect(v1Payload.x402Version).toBe(1);
    await expectRefused(
      await post("/check", { "X-Payment": encodePaymentSignatureHeader(v1Payload) }),
      /^unsupported_x402_version$/,
    );
    const v2Payload = await clientFor(payer).createPaymentPayload(required);
    for (const x402Version of [1, 3]) {
      const header = encodePaymentSignatureHeader({ ...v2Payload, x402Version });
      await expectRefused(
        await post("/check", { "PAYMENT-SIGNATURE": header }),
        /^unsupported_x402_version$/,
      );
    }
    expect(verify).not.toHaveBeenCalled();
  });

  it("oversizedHeader: a 20 KB payment header is refused before decoding", async () => {
    await expectRefused(
      await post("/check", { "X-Payment": "A".repeat(20_000) }),
      /^payment_header_too_large$/,
    );
  });

  // The official facilitator takes a payload's shape for granted: a field of the wrong type makes
  // it throw, which presend must not read as "the facilitator did not answer" (a 503 that asks
  // for a retry and escapes the refused-payment budget) nor let through as a 500.
  it("wrongTypes: a signature that is not a string is refused before verification", async () => {
    const verify = vi.spyOn(stack.payments.facilitator, "verify");
    for (const signature of [null, 5, {}, ["0x00"]]) {
      const payload = await clientFor(payer).createPaymentPayload(await challenge("/check"));
      const header = encodePaymentSignatureHeader({
        ...payload,
        payload: { ...payload.payload, signature },
      });
      await expectRefused(
        await post("/check", { "PAYMENT-SIGNATURE": header }),
        /^invalid_payment_header$/,
      );
    }
    expect(verify).not.toHaveBeenCalled();
  });

  it("channelShapes: a channel voucher that claims the exact terms, or names a null channel, is refused", async () => {
    const required = await challenge("/check");
    const voucher = {
      channelId: `0x${"22".repeat(32)}`,
      maxClaimableAmount: "10000",
      signature: `0x${"33".repeat(65)}`,
    };
    const channelConfig = { payer: payer.address, salt: `0x${"11".repeat(32)}` };
    for (const payload of [
      { type: "voucher", channelConfig, voucher },
      { type: "voucher", channelConfig: null, voucher },
    ]) {
      const header = encodePaymentSignatureHeader({
        x402Version: 2,
        resource: required.resource,
        accepted: required.accepts[0] as PaymentRequirements,
        payload,
      });
      await expectRefused(
        await post("/check", { "PAYMENT-SIGNATURE": header }),
        /^invalid_payment_header$/,
      );
    }
  });
});
