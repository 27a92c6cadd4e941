import { cpSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPresendClient } from "@presend/client";
import { devnetPrivateKey } from "@presend/devnet";
import { sharedWorld } from "@presend/devnet/testing";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { channelOptions } from "../cli/channelOptions";
import { openPinStore } from "../cli/openPinStore";
import { openSqlitePaymentRecords } from "../paymentRecords/openSqlitePaymentRecords";
import { rotateAttestationKey } from "../payments/attestation/rotateAttestationKey";
import { loadReceiverAuthorizerKey } from "../payments/channels/loadReceiverAuthorizerKey";
import { openSqliteChannelStore } from "../payments/channels/openSqliteChannelStore";
import { fileSenderJournal } from "../payments/facilitator/fileSenderJournal";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";

// What release 8ef3672 (2026-11-25, the last commit before a two-day pause) left on disk, read by
// this code. releasedData/8ef3672/ was made by that revision on local anvil chains, in mainnet mode
// with `presend facilitator` and a SQLite DATA_DIR: its CLI paid one check with exact and two over
// a channel (PRESEND_CHANNEL_DEPOSIT=0.05), its extension background paid one over a channel and
// one with exact whose answer it lost (extension/src/lib/storage/releasedData/8ef3672/), the
// channel claims ran, then a CLI check was sent with mining paused and the server and facilitator
// were SIGKILLed while its settlement sat unmined. data/ is that DATA_DIR as the kill left it (the
// SQLite WAL folded into each file, nothing else changed), with the facilitator service's journal
// (FACILITATOR_JOURNAL_FILE) beside it; config/ is the channel payer's CLI config directory
// ($XDG_CONFIG_HOME). The payers' keys are devnetPrivateKey(`upgrade-trial-…`); the attestation
// and receiver authorizer keys are the ones that release generated there, for this test only.
const released = join(import.meta.dirname, "releasedData/8ef3672");
const api = "http://127.0.0.1:27442";
const payers = {
  cliExact: privateKeyToAccount(devnetPrivateKey("upgrade-trial-cli-exact")),
  cliChannel: privateKeyToAccount(devnetPrivateKey("upgrade-trial-cli-channel")),
  extension: privateKeyToAccount(devnetPrivateKey("upgrade-trial-client-exact")),
};

/** Every payment the release charged, as its payer's client was told to fetch it again. */
const charged = [
  {
    what: "the CLI's exact check",
    payer: payers.cliExact,
    tx: "0x44ae1642b2998572a45579bab3fafb1c70a83b220b3a2ee2283e2cb5345ca75a",
    address: "0x5982758b12b31D28DEBeC877D26d26C9A0cB7BfA",
  },
  {
    what: "the CLI's first check over its channel (the deposit)",
    payer: payers.cliChannel,
    nonce: "0x60da3fb0a814ff64acdebfe3c57d4c65fb76269e2accabdf51176f90f8648044",
    address: "0xb1cc12A0f204B85eDbFe7f08bBC11687801b3519",
  },
  {
    what: "the CLI's voucher",
    payer: payers.cliChannel,
    nonce: "0x8388dd091b0d57ef2a550b916e93e0c7f7c9463ceb79d9b4164ba43f36adadd8",
    address: "0xd6cb9b63047c0b6B646C854C12a6638a3C93115A",
  },
  {
    what: "the extension's check over its channel",
    payer: payers.extension,
    nonce: "0xb446234f5b17860baa99e32281d8665c52b4b6b4474a7ab4555e8a0388ca0a23",
    address: "0x5982758b12b31D28DEBeC877D26d26C9A0cB7BfA",
  },
  {
    what: "the extension's exact check whose answer was lost (its pending recovery)",
    payer: payers.extension,
    nonce: "0x6dbb9509f798c82f91f2938175d6e4dd5b1bcc26de907bfb37ef5ff32db94898",
    address: "0xb1cc12A0f204B85eDbFe7f08bBC11687801b3519",
  },
] as const;

/** The CLI check whose settlement was unmined when the server was killed. */
const inFlight = {
  payer: payers.cliExact.address.toLowerCase(),
  nonce: "0x7fad439233d07bd13e64dbf3b39896e6b72be40e7c849a872035f6054ec67482",
};

describe("data written by release 8ef3672, read after the upgrade", () => {
  const dirs: string[] = [];
  /** A copy of releasedData/8ef3672/<part>: the code under test migrates what it opens. */
  const copyOf = (part: "data" | "config") => {
    const dir = mkdtempSync(join(tmpdir(), "presend-released-"));
    dirs.push(dir);
    cpSync(join(released, part), dir, { recursive: true });
    return dir;
  };
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("keeps every payment record with its status, settlement and signed report, the one in flight open for the reconciler", async () => {
    const records = openSqlitePaymentRecords(join(copyOf("data"), "payments.sqlite"));
    try {
      expect(await records.count()).toBe(6);
      expect(await records.count("settled")).toBe(5);
      for (const payment of charged) {
        const record =
          "tx" in payment
            ? await records.byTransaction(payment.tx)
            : await records.byAuthorization({
                payer: payment.payer.address.toLowerCase(),
                nonce: payment.nonce,
              });
        expect(record, payment.what).toMatchObject({ status: "settled", amount: "10000" });
        expect(record?.tx, payment.what).toMatch(/^0x[0-9a-f]{64}$/);
        // The release kept the signature of an exact payment's report, none of a channel's.
        expect(record?.reportSignature ?? null, payment.what).toEqual(
          "tx" in payment || payment.what.includes("exact") ? expect.any(String) : null,
        );
        expect((record?.report as { address: string } | undefined)?.address, payment.what).toBe(
          payment.address,
        );
      }
      expect(await records.byAuthorization(inFlight)).toMatchObject({
        status: "pending",
        tx: null,
      });
      const open = await records.unresolved();
      expect(open.map((record) => record.nonce)).toEqual([inFlight.nonce]);
    } finally {
      await records.close();
    }
  });

  it("keeps the channels, their claimed charges and the receiver authorizer that signs their claims and refunds", async () => {
    const data = copyOf("data");
    const store = openSqliteChannelStore(join(data, "channels.sqlite"));
    try {
      const channels = await store.list();
      expect(channels.map((channel) => channel.channelConfig.payer).sort()).toEqual(
        [payers.cliChannel.address, payers.extension.address].sort(),
      );
      const authorizer = privateKeyToAccount(await loadReceiverAuthorizerKey(data));
      for (const channel of channels) {
        expect(channel.channelConfig.receiverAuthorizer).toBe(authorizer.address);
        expect(BigInt(channel.balance) - BigInt(channel.chargedCumulativeAmount)).toBeGreaterThan(
          0n,
        );
      }
      // Every charge the release indexed was claimed before the kill: none waits for a claim.
      expect(await store.unclaimedCharges()).toEqual([]);
    } finally {
      await store.close();
    }
  });

  it("reads the facilitator's journal of the settlement left unmined", async () => {
    const entries = await fileSenderJournal(
      join(copyOf("data"), "service-facilitator-journal.json"),
    ).read();
    expect(entries).toHaveLength(1);
    expect(entries[0]?.request.data).toContain(inFlight.nonce.slice(2));
  });

  it("pays on through the CLI's channel: the same session key and channel state, the pins kept", async () => {
    const config = copyOf("config");
    const channel = channelOptions(
      {},
      { configDir: join(config, "presend"), durable: true, maxDeposit: 100_000n },
    );
    expect(channel?.voucherSigner.address).toBe("0xb2cC9A61687B92fc103f4890Fb7Ed58cab9E15A5");
    const state = await channel?.storage?.get(
      "0x387fb0b235afaea8d0eb015c3e4297c0f6d890cdc5e365301a9ddcaf4faf89ba",
    );
    expect(state).toMatchObject({ chargedCumulativeAmount: "20000", balance: "50000" });
    const pin = await openPinStore(join(config, "presend", "pins.json")).get(api);
    expect(pin?.fingerprint).toBe("y3Zl6LBN6GpxLJrgDDK-jNQwqSPjrLd-xtWRxSVz7sM");
  });

  describe("the current server on that DATA_DIR", () => {
    let stack: PaidStack;
    let config: string;
    beforeAll(async () => {
      config = copyOf("config");
      stack = await startPaidStack({
        world: sharedWorld(),
        dataDir: copyOf("data"),
        publicUrl: api,
      });
    });
    afterAll(async () => {
      await stack?.stop();
    });

    it.each(charged)(
      "serves $what through /receipts, verified with the key the release pinned",
      async (payment) => {
        const presend = createPresendClient({
          url: api,
          signer: payment.payer,
          pinStore: openPinStore(join(config, "presend", "pins.json")),
          fetch: async (input, init) => stack.app.request(input, init),
        });
        const result = await presend.receipt(
          "tx" in payment
            ? payment.tx
            : { payer: payment.payer.address, nonce: payment.nonce as Hex },
        );
        expect(result.type).toBe("report");
        if (result.type !== "report") return;
        expect(result.charged).toBe(true);
        expect(result.signature).toBe("verified");
        expect(result.report.address).toBe(payment.address);
      },
    );
  });

  it.each(charged)(
    "after the upgrade and then an attestation key rotation, still serves $what verified with the key the release pinned",
    async (payment) => {
      const data = copyOf("data");
      const config = copyOf("config");
      const upgraded = await startPaidStack({
        world: sharedWorld(),
        dataDir: data,
        publicUrl: api,
      });
      await upgraded.stop();
      const previousKeysFile = join(data, "previous-attestation-keys.json");
      await rotateAttestationKey({
        keyFile: join(data, "attestation-key.json"),
        outFile: join(data, "next-attestation-key.json"),
        previousKeysFile,
        at: new Date(),
        kid: "presend-2099-01",
      });
      const rotated = await startPaidStack({
        world: sharedWorld(),
        dataDir: data,
        publicUrl: api,
        env: {
          ATTESTATION_KEY_FILE: join(data, "next-attestation-key.json"),
          ATTESTATION_PREVIOUS_KEYS_FILE: previousKeysFile,
        },
      });
      try {
        const presend = createPresendClient({
          url: api,
          signer: payment.payer,
          pinStore: openPinStore(join(config, "presend", "pins.json")),
          fetch: async (input, init) => rotated.app.request(input, init),
        });
        const result = await presend.receipt(
          "tx" in payment
            ? payment.tx
            : { payer: payment.payer.address, nonce: payment.nonce as Hex },
        );
        expect(result.type, "message" in result ? result.message : "").toBe("report");
      } finally {
        await rotated.stop();
      }
    },
  );
});
