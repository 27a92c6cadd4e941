import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, statfsSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createMemoryPinStore, createPresendClient } from "@presend/client";
import { devnetAccounts } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { openSqlitePaymentRecords } from "../paymentRecords/openSqlitePaymentRecords";
import type { PaymentRecordStore } from "../paymentRecords/paymentRecordStore";
import { exactPayments } from "./testing/exactPayments";
import { type PaidStack, startPaidStack } from "./testing/startPaidStack";

// This file's payer, facilitator and payTo: a payment lane of the run's shared world.
const shared = sharedPaymentWorld();
const payer = privateKeyToAccount(shared.world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;
const price = BigInt(routePrices.check);

// An embedded server's DATA_DIR on a disk that fills up. The disk is a real one: a 4 MB tmpfs
// mounted for this file (the tests run as root, as CI does, so `mount` is allowed), filled by a
// file to its last block, so SQLite's own writes meet ENOSPC from the kernel ("database or disk
// is full"), the fault an operator sees; no limit is put on the store from inside.
describe("payment records in a DATA_DIR whose disk is full", () => {
  const dataDir = mkdtempSync(join(tmpdir(), "presend-full-disk-"));
  const filler = join(dataDir, "filler");
  let stack: PaidStack;
  let records: PaymentRecordStore;
  let beforeMarkSettled: (() => void) | null = null;
  const { post, signed, used } = exactPayments(() => stack, payer, {
    address: target,
    chain: "base",
  });
  const fillDisk = () => {
    const { bavail, bsize } = statfsSync(dataDir);
    writeFileSync(filler, Buffer.alloc(Number(bavail * bsize)));
    expect(statfsSync(dataDir).bavail).toBe(0);
  };
  const freeDisk = () => rmSync(filler, { force: true });
  const readyz = () => stack.app.request("/readyz");

  beforeAll(async () => {
    execFileSync("mount", ["-t", "tmpfs", "-o", "size=4m,mode=0700", "tmpfs", dataDir]);
    records = openSqlitePaymentRecords(join(dataDir, "payments.sqlite"));
    stack = await startPaidStack({
      world: shared.world,
      dataDir,
      records: {
        ...records,
        markSettled: async (key, tx) => {
          beforeMarkSettled?.();
          return records.markSettled(key, tx);
        },
      },
    });
    // One paid check first: the store's file and write-ahead log are as a running server's.
    expect((await post((await signed()).headers)).status).toBe(200);
  });
  afterEach(() => {
    beforeMarkSettled = null;
    freeDisk();
  });
  afterAll(async () => {
    await stack?.stop();
    execFileSync("umount", [dataDir]);
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("full before a paid check: 503 payment_record_unavailable, nothing charged, /readyz 503; paid once there is room", async () => {
    const { headers, nonce } = await signed();
    const before = await stack.usdcBalance(payer.address);
    fillDisk();
    const answer = await post(headers);
    expect(answer.status).toBe(503);
    expect((await answer.json()).error.code).toBe("payment_record_unavailable");
    expect(await used(nonce)).toBe(false);
    expect(await stack.usdcBalance(payer.address)).toBe(before);
    await expect.poll(async () => (await readyz()).status, { timeout: 5_000 }).toBe(503);

    freeDisk();
    await expect.poll(async () => (await readyz()).status, { timeout: 5_000 }).toBe(200);
    expect((await post(headers)).status).toBe(200);
    expect(before - (await stack.usdcBalance(payer.address))).toBe(price);
  }, 60_000);

  it("full between the charge and its record: the payer gets the report and fetches it through /receipts; marked once there is room", async () => {
    const client = createPresendClient({
      url: stack.publicUrl,
      signer: payer,
      pinStore: createMemoryPinStore(),
      fetch: async (input, init) =>
        stack.app.request(input instanceof Request ? input : new Request(input, init)),
    });
    const before = await stack.usdcBalance(payer.address);
    beforeMarkSettled = fillDisk;
    const paid = await client.check({ address: target });
    beforeMarkSettled = null;
    expect(paid).toMatchObject({ type: "report", charged: true, recovered: false });
    if (paid.type !== "report") return;
    expect(before - (await stack.usdcBalance(payer.address))).toBe(price);
    const open = (await records.unresolved(10)).filter(
      (record) => record.payer === payer.address.toLowerCase(),
    );
    expect(open).toHaveLength(1);
    const nonce = open[0]?.nonce as `0x${string}`;
    expect(await used(nonce)).toBe(true);
    await expect.poll(async () => (await readyz()).status, { timeout: 5_000 }).toBe(503);

    const fetched = await client.receipt({ payer: payer.address, nonce });
    expect(fetched).toMatchObject({ type: "report", charged: true, report: paid.report });

    freeDisk();
    expect(await client.receipt({ payer: payer.address, nonce })).toMatchObject({
      type: "report",
      report: paid.report,
    });
    expect(await records.byAuthorization({ payer: payer.address, nonce })).toMatchObject({
      status: "settled",
      tx: paid.settlement.transaction.toLowerCase(),
    });
  }, 60_000);
});
