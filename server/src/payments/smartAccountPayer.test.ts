import { createMemoryPinStore, createPresendClient, type PresendSigner } from "@presend/client";
import {
  deployCoinbaseSmartWallet,
  devnetAccounts,
  devnetClient,
  devnetPrivateKey,
} from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { routePrices } from "@presend/shared/pricing/routePrices";
import type { Address } from "viem";
import { toCoinbaseSmartAccount } from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type FaultyRpc, startFaultyRpc } from "./testing/startFaultyRpc";
import { type PaidStack, startPaidStack } from "./testing/startPaidStack";

// This file's payTo and facilitator: a payment lane of the run's shared world. The payer is a
// smart account (Coinbase-Smart-Wallet-like, on the local Base chain): its address is a contract,
// its signatures are its owner's wrapped as the account's ERC-1271 check expects.
const shared = sharedPaymentWorld();
const target = devnetAccounts.activeOnBase.address;
const price = BigInt(routePrices.check);
const owner = privateKeyToAccount(devnetPrivateKey("smart-account-payer-owner"));

describe("a smart account pays (exact, ERC-1271 signatures)", () => {
  let stack: PaidStack;
  /** Base as the payment side reads it, through a proxy a test can make unreadable. */
  let paymentRpc: FaultyRpc;
  let smartAccount: Address;
  const base = () => devnetClient("base", shared.world.chains.base.rpcUrl);
  /** The account as a wallet presents it: viem's Coinbase Smart Account over the owner key. */
  const signerOf = async (address: Address): Promise<PresendSigner> => {
    const account = await toCoinbaseSmartAccount({
      client: base(),
      owners: [owner],
      address,
      version: "1",
    });
    return {
      address,
      signTypedData: (typedData) => account.signTypedData(typedData as never),
      signMessage: ({ message }) => account.signMessage({ message }),
    };
  };
  // One pin store: the key pinned by the payment verifies the report fetched again.
  const pinStore = createMemoryPinStore();
  const clientOf = (signer: PresendSigner, options: { signIn?: boolean } = {}) =>
    createPresendClient({
      url: stack.publicUrl,
      signer,
      pinStore,
      ...options,
      fetch: async (input, init) =>
        stack.app.request(input instanceof Request ? input : new Request(input, init)),
    });

  beforeAll(async () => {
    smartAccount = await deployCoinbaseSmartWallet(base(), {
      deployer: privateKeyToAccount(devnetPrivateKey("smart-account-payer-deployer")),
      owner: owner.address,
    });
    await shared.fund(smartAccount, 1_000_000n);
    paymentRpc = await startFaultyRpc(shared.world.chains.base.rpcUrl);
    stack = await startPaidStack({ world: shared.world, paymentRpcUrl: paymentRpc.url });
  });
  afterAll(async () => {
    await stack?.stop();
    await paymentRpc?.close();
  });
  /** Runs `during` while Base answers the payment side only garbage. */
  async function baseUnreadable<T>(during: () => Promise<T>): Promise<T> {
    paymentRpc.mode = "garbage";
    try {
      return await during();
    } finally {
      paymentRpc.mode = "pass";
    }
  }

  it("is charged once for a report; fetches it again by /receipts with its ERC-1271 message signature, and signed in (Sign-In-With-X) without paying again", async () => {
    const signer = await signerOf(smartAccount);
    const before = await stack.usdcBalance(smartAccount);
    const paid = await clientOf(signer).check({ address: target });
    expect(paid).toMatchObject({ type: "report", charged: true });
    if (paid.type !== "report") throw new Error("not paid");
    expect(before - (await stack.usdcBalance(smartAccount))).toBe(price);

    const again = await clientOf(signer).receipt(paid.settlement.transaction);
    expect(again).toMatchObject({ type: "report" });
    if (again.type !== "report") throw new Error("no receipt");
    expect(again.report).toEqual(paid.report);

    const reread = await clientOf(signer, { signIn: true }).check({ address: target });
    expect(reread).toMatchObject({ type: "report", signedIn: true });
    if (reread.type !== "report") throw new Error("not re-read");
    expect(reread.report).toEqual(paid.report);
    expect(before - (await stack.usdcBalance(smartAccount))).toBe(price);
  }, 30_000);

  it("a signature that is not the account's owner's fetches nothing from /receipts", async () => {
    const signer = await signerOf(smartAccount);
    const paid = await clientOf(signer).check({ address: target });
    if (paid.type !== "report") throw new Error("not paid");
    const stranger = privateKeyToAccount(devnetPrivateKey("smart-account-payer-stranger"));
    const forged = await (
      await toCoinbaseSmartAccount({
        client: base(),
        owners: [stranger],
        address: smartAccount,
        version: "1",
      })
    ).signMessage({ message: `presend receipt ${paid.settlement.transaction}` });
    const answer = await stack.app.request(
      `/receipts/${paid.settlement.transaction}?signature=${forged}`,
    );
    expect(answer.status).toBe(403);
    expect((await answer.json()).error.code).toBe("receipt_forbidden");
  }, 30_000);

  it("a counterfactual account (ERC-6492 signature, not deployed on Base) is refused before any charge, and told to deploy it first", async () => {
    // An address with no code: the wallet wraps the owner's signature with the factory that
    // would deploy it (Coinbase's), which the facilitator does not deploy with.
    const counterfactual = privateKeyToAccount(
      devnetPrivateKey("smart-account-payer-counterfactual"),
    ).address;
    await shared.fund(counterfactual, 1_000_000n);
    const before = await stack.usdcBalance(counterfactual);
    const refused = await clientOf(await signerOf(counterfactual)).check({ address: target });
    expect(refused).toMatchObject({
      type: "not_charged",
      charged: false,
      code: "eip6492_factory_not_allowed",
    });
    if (refused.type !== "not_charged") throw new Error("not refused");
    expect(refused.message).toContain(
      `The paying address ${counterfactual} is a smart account that is not deployed on Base yet`,
    );
    expect(await stack.usdcBalance(counterfactual)).toBe(before);
    expect(await base().getCode({ address: counterfactual })).toBeUndefined();
  }, 30_000);

  it("while Base cannot be read, its valid /receipts signature is 503 signature_unverifiable with Retry-After, never 403; the client says try again, charge unknown, and gets the report once Base answers", async () => {
    const signer = await signerOf(smartAccount);
    const paid = await clientOf(signer).check({ address: target });
    if (paid.type !== "report") throw new Error("not paid");
    const tx = paid.settlement.transaction;
    const signature = await signer.signMessage({ message: receiptMessage(tx) });

    const unread = await baseUnreadable(async () =>
      stack.app.request(`/receipts/${tx}?signature=${signature}`),
    );
    expect(unread.status).toBe(503);
    expect(unread.headers.get("retry-after")).toMatch(/^\d+$/);
    expect((await unread.json()).error.code).toBe("signature_unverifiable");

    const later = await baseUnreadable(() => clientOf(signer).receipt(tx));
    expect(later).toMatchObject({
      type: "receipt_unavailable",
      code: "signature_unverifiable",
      status: 503,
      charged: "unknown",
    });

    const again = await clientOf(signer).receipt(tx);
    expect(again).toMatchObject({ type: "report" });
    if (again.type !== "report") throw new Error("no receipt");
    expect(again.report).toEqual(paid.report);
  }, 30_000);

  it("while Base cannot be read, a signature the account refuses when Base answers is not taken either, and once Base answers it is 403", async () => {
    const signer = await signerOf(smartAccount);
    const paid = await clientOf(signer).check({ address: target });
    if (paid.type !== "report") throw new Error("not paid");
    const tx = paid.settlement.transaction;
    // 65 bytes that are no ECDSA signature of anyone's: the account's check reverts on them.
    const junk = `0x${"11".repeat(65)}`;
    const unread = await baseUnreadable(async () =>
      stack.app.request(`/receipts/${tx}?signature=${junk}`),
    );
    expect(unread.status).toBe(503);
    const read = await stack.app.request(`/receipts/${tx}?signature=${junk}`);
    expect(read.status).toBe(403);
    expect((await read.json()).error.code).toBe("receipt_forbidden");
  }, 30_000);

  it("while Base cannot be read, its sign-in re-read is 503 signature_unverifiable (not the 402): the client pays nothing again, says so, and re-reads once Base answers", async () => {
    const signer = await signerOf(smartAccount);
    const paid = await clientOf(signer).check({ address: target });
    if (paid.type !== "report") throw new Error("not paid");
    const before = await stack.usdcBalance(smartAccount);

    const unread = await baseUnreadable(async () =>
      clientOf(signer, { signIn: true }).check({ address: target }),
    );
    expect(unread).toMatchObject({
      type: "not_charged",
      code: "signature_unverifiable",
      status: 503,
      charged: false,
    });
    expect(await stack.usdcBalance(smartAccount)).toBe(before);

    const reread = await clientOf(signer, { signIn: true }).check({ address: target });
    expect(reread).toMatchObject({ type: "report", signedIn: true });
    if (reread.type !== "report") throw new Error("not re-read");
    expect(reread.report).toEqual(paid.report);
    expect(await stack.usdcBalance(smartAccount)).toBe(before);
  }, 30_000);
});
