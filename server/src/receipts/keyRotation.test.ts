import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  type ClientEvent,
  createMemoryPinStore,
  createPresendClient,
  type PinStore,
} from "@presend/client";
import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { verifyReportSignature } from "@presend/shared/attestation/verifyReportSignature";
import { calculateJwkThumbprint, exportJWK, generateKeyPair } from "jose";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import {
  AttestationPrivateKeySchema,
  devAttestationKeyFile,
} from "../payments/attestation/loadAttestationKey";
import { rotateAttestationKey } from "../payments/attestation/rotateAttestationKey";
import { signKeyRotationStatement } from "../payments/attestation/signKeyRotationStatement";
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
    const settlement = { ...paid.settlement };
    await before.stop();
    stacks.pop();

    // The operator rotates: a new key (another kid) in the same place, the server restarted.
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    const newKey = { ...(await exportJWK(privateKey)), kid: "presend-2099-01" };
    writeFileSync(join(dataDir, devAttestationKeyFile), JSON.stringify(newKey));
    // The old public key is kept in the list of previous keys, with the last time it signed.
    const previousKeysFile = join(dataDir, "previous-keys.json");
    const oldKey = before.payments.attestation.current().key;
    const validUntil = new Date().toISOString();
    writeFileSync(previousKeysFile, JSON.stringify([{ key: oldKey, validUntil }]));
    const after = await startPaidStack({
      world: shared.world,
      dataDir,
      env: { ATTESTATION_PREVIOUS_KEYS_FILE: previousKeysFile },
    });
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
    // The discovery document lists the old key: anyone can verify the old report with it.
    const discovery = await (await after.app.request("/.well-known/x402")).json();
    expect(discovery.attestation.key.kid).toBe("presend-2099-01");
    expect(discovery.previousAttestationKeys).toEqual([{ key: oldKey, validUntil }]);
    expect(
      await verifyReportSignature({
        signature: stored.signature,
        report: stored.report,
        settlement,
        key: discovery.previousAttestationKeys[0].key,
      }),
    ).toMatchObject({ type: "verified" });
    // The client pinned the old key when it paid: the report it fetches again is verified, not forged.
    const fetched = await clientOf(after).receipt(tx);
    expect(fetched).toMatchObject({ type: "report", signature: "verified", recovered: true });
  });
});

describe("attestation key rotation with a statement: a client that pinned the old key follows it", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "presend-rotation-statement-"));
  const stacks: PaidStack[] = [];
  afterAll(async () => {
    for (const stack of stacks) await stack.stop();
    rmSync(dataDir, { recursive: true, force: true });
  });
  const clientOf = (stack: PaidStack, pinStore: PinStore, events: ClientEvent[] = []) =>
    createPresendClient({
      url: stack.publicUrl,
      signer: payer,
      pinStore,
      onEvent: (event) => events.push(event),
      fetch: async (input, init) =>
        stack.app.request(input instanceof Request ? input : new Request(input, init)),
    });
  const kidOf = (signature: string) =>
    JSON.parse(Buffer.from(signature.split(".")[0] as string, "base64url").toString()).kid;

  it("pays under K1, pays again after the rotation to K2 (the pin moves), and verifies each report through /receipts with the key it was paid under", async () => {
    const pinStore = createMemoryPinStore();
    const before = await startPaidStack({ world: shared.world, dataDir });
    stacks.push(before);
    const k1 = before.payments.attestation.current().key;
    const first = await clientOf(before, pinStore).check({ address: target });
    expect(first.type).toBe("report");
    if (first.type !== "report") return;
    expect((await pinStore.get("http://presend.test"))?.jwk.kid).toBe(k1.kid);
    await before.stop();
    stacks.pop();

    // The operator's tool: a new key, the old one listed with its statement over the new one.
    const previousKeysFile = join(dataDir, "previous-keys.json");
    const nextKeyFile = join(dataDir, "attestation-key-next.json");
    const rotated = await rotateAttestationKey({
      keyFile: join(dataDir, devAttestationKeyFile),
      outFile: nextKeyFile,
      previousKeysFile,
      at: new Date(),
      kid: "presend-2099-02",
    });
    const after = await startPaidStack({
      world: shared.world,
      dataDir,
      env: {
        ATTESTATION_KEY_FILE: nextKeyFile,
        ATTESTATION_PREVIOUS_KEYS_FILE: previousKeysFile,
      },
    });
    stacks.push(after);
    expect(after.payments.attestation.current().key.kid).toBe("presend-2099-02");
    const discovery = await (await after.app.request("/.well-known/x402")).json();
    expect(discovery.previousAttestationKeys).toEqual([rotated.retired]);

    const events: ClientEvent[] = [];
    const second = await clientOf(after, pinStore, events).check({ address: target });
    expect(second).toMatchObject({ type: "report", signature: "verified", receipt: "verified" });
    if (second.type !== "report") return;
    expect(events).toContainEqual({
      type: "key_followed",
      origin: "http://presend.test",
      from: k1.kid,
      kid: "presend-2099-02",
      fingerprint: rotated.thumbprint,
    });
    const pin = await pinStore.get("http://presend.test");
    expect(pin).toMatchObject({
      jwk: { kid: "presend-2099-02" },
      fingerprint: rotated.thumbprint,
      previous: [{ jwk: { kid: k1.kid }, until: rotated.retired.validUntil }],
    });

    const client = clientOf(after, pinStore);
    const again1 = await client.receipt(first.settlement.transaction);
    const again2 = await client.receipt(second.settlement.transaction);
    expect(again1).toMatchObject({ type: "report", signature: "verified", recovered: true });
    expect(again2).toMatchObject({ type: "report", signature: "verified", recovered: true });
    // Each report is served as it was signed: payment 1 by K1, payment 2 by K2.
    const stored = async (tx: string) => {
      const proof = await payer.signMessage({ message: receiptMessage(tx.toLowerCase()) });
      return (await after.app.request(`/receipts/${tx}?signature=${proof}`)).json();
    };
    expect(kidOf((await stored(first.settlement.transaction)).signature)).toBe(k1.kid);
    expect(kidOf((await stored(second.settlement.transaction)).signature)).toBe("presend-2099-02");
    await after.stop();
    stacks.pop();
  });

  it("refuses to start with a statement signed by another key, and a client pinning K1 refuses (charged: no) a rotation without a statement", async () => {
    const previous = JSON.parse(readFileSync(join(dataDir, "previous-keys.json"), "utf8"));
    const k1 = previous[0].key;
    const next = JSON.parse(readFileSync(join(dataDir, "attestation-key-next.json"), "utf8"));
    const { d: _private, ...nextPublic } = next;
    // A statement in K1's name, signed by a key that is not K1.
    const { privateKey } = await generateKeyPair("ES256", { extractable: true });
    const impostor = AttestationPrivateKeySchema.parse({
      ...(await exportJWK(privateKey)),
      kid: k1.kid,
    });
    const forgedFile = join(dataDir, "previous-forged.json");
    writeFileSync(
      forgedFile,
      JSON.stringify([
        {
          ...previous[0],
          statement: await signKeyRotationStatement(
            impostor,
            { ...nextPublic, alg: "ES256", use: "sig" },
            new Date(previous[0].validUntil),
          ),
        },
      ]),
    );
    const env = { ATTESTATION_KEY_FILE: join(dataDir, "attestation-key-next.json") };
    await expect(
      startPaidStack({
        world: shared.world,
        dataDir,
        env: { ...env, ATTESTATION_PREVIOUS_KEYS_FILE: forgedFile },
      }),
    ).rejects.toThrow(/ATTESTATION_PREVIOUS_KEYS_FILE: .*0\.statement .*not signed by key/);

    const unvouchedFile = join(dataDir, "previous-unvouched.json");
    writeFileSync(
      unvouchedFile,
      JSON.stringify([{ key: previous[0].key, validUntil: previous[0].validUntil }]),
    );
    const stack = await startPaidStack({
      world: shared.world,
      dataDir,
      env: { ...env, ATTESTATION_PREVIOUS_KEYS_FILE: unvouchedFile },
    });
    stacks.push(stack);
    const pinStore = createMemoryPinStore({
      "http://presend.test": {
        jwk: k1,
        fingerprint: await calculateJwkThumbprint(k1, "sha256"),
        pinnedAt: new Date().toISOString(),
        apiUrl: "http://presend.test",
      },
    });
    const balance = await stack.usdcBalance(payer.address);
    const refused = await clientOf(stack, pinStore).check({ address: target });
    expect(refused).toMatchObject({
      type: "refused",
      code: "key_changed",
      charged: false,
      message: expect.stringMatching(/no statement by presend-/),
    });
    expect(await stack.usdcBalance(payer.address)).toBe(balance);
    expect((await pinStore.get("http://presend.test"))?.jwk.kid).toBe(k1.kid);
  });
});
