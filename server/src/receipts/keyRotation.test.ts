import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryPinStore, createPresendClient } from "@presend/client";
import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { exportJWK, generateKeyPair } from "jose";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { devAttestationKeyFile } from "../payments/attestation/loadAttestationKey";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";

// This file's payer, facilitator and payTo: a payment lane of the run's shared world.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;

describe("attestation key rotation: a report paid under the old key stays verifiable", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "presend-rotation-"));
  const stacks: PaidStack[] = [];
  afterAll(async () => {
    for (const stack of stacks) await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("after the key changed, /receipts serves the report with the signature it was paid with; @presend/client verifies it with the key it pinned", async () => {
    const pinStore = createMemoryPinStore();
    const clientOf = (stack: PaidStack) =>
      createPresendClient({
        url: stack.publicUrl,
        signer: payer,
        pinStore,
        fetch: async (input, init) =>
          stack.app.request(input instanceof Request ? input : new Request(input, init)),
      });
    const before = await startPaidStack({ world: shared.world, dataDir });
    stacks.push(before);
    const paid = await clientOf(before).check({ address: target });
    expect(paid.type).toBe("report");
    if (paid.type !== "report") return;
    const tx = paid.settlement.transaction;
    const proof = await payer.signMessage({ message: receiptMessage(tx.toLowerCase()) });
    const firstAnswer = await before.app.request(`/receipts/${tx}?signature=${proof}`);
    const { signature: paidSignature } = await firstAnswer.json();
    const oldKid = before.payments.attestation.current().key.kid;
    await before.stop();
    stacks.pop();

    // The operator rotates: a new key (another kid) in the same place, the server restarted.
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    const newKey = { ...(await exportJWK(privateKey)), kid: "presend-2099-01" };
    writeFileSync(join(dataDir, devAttestationKeyFile), JSON.stringify(newKey));
    const after = await startPaidStack({ world: shared.world, dataDir });
    stacks.push(after);
    expect(after.payments.attestation.current().key.kid).toBe("presend-2099-01");
    expect(oldKid).not.toBe("presend-2099-01");

    const receipt = await after.app.request(`/receipts/${tx}?signature=${proof}`);
    expect(receipt.status).toBe(200);
    const stored = await receipt.json();
    expect(stored.signature).toBe(paidSignature);
    expect(
      JSON.parse(Buffer.from(stored.signature.split(".")[0], "base64url").toString()),
    ).toMatchObject({
      kid: oldKid,
    });
    // The client pinned the old key when it paid: the report it fetches again is verified, not forged.
    const fetched = await clientOf(after).receipt(tx);
    expect(fetched).toMatchObject({ type: "report", signature: "verified", recovered: true });
  });
});
