import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createPublicClient, http } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterEach, describe, expect, it } from "vitest";
import { devnetAccounts } from "../devnetAccounts";
import { usdcBalanceOnBase } from "../usdcBalanceOnBase";
import {
  claimPaymentLane,
  laneFunds,
  laneWorld,
  paymentLane,
  paymentLaneCount,
} from "./paymentLanes";
import { sharedPaymentWorld, sharedWorld } from "./sharedWorld";

describe("claimPaymentLane", () => {
  let dir = "";
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("gives every claim a lane of its own until none is left", () => {
    dir = mkdtempSync(join(tmpdir(), "lanes-test-"));
    const claimed = Array.from({ length: paymentLaneCount }, () => claimPaymentLane(dir).index);
    expect(new Set(claimed).size).toBe(paymentLaneCount);
    expect(() => claimPaymentLane(dir)).toThrow(
      new RegExp(`all ${paymentLaneCount} payment lanes .* are taken`),
    );
  });

  it("has a lane for every test file that pays on the shared world, with some to spare", () => {
    // Each such file claims one lane for the whole run; one more than there are lanes fails at
    // random, wherever the last claim lands.
    const files = execFileSync("git", ["grep", "-l", "sharedPaymentWorld(", "--", "*.test.ts"], {
      cwd: join(import.meta.dirname, "../../.."),
      encoding: "utf8",
    })
      .split("\n")
      .filter((file) => file !== "" && !file.startsWith("devnet/src/testing/"));
    expect(files.length).toBeGreaterThan(0);
    expect(files.length + 8, files.join(", ")).toBeLessThanOrEqual(paymentLaneCount);
  });

  it("derives a lane's accounts from its index: the same on every run, distinct across roles and lanes", () => {
    const first = paymentLane(3);
    expect(paymentLane(3)).toEqual(first);
    const addresses = [0, 1, 2].flatMap((index) => {
      const lane = paymentLane(index);
      return [lane.payer, lane.facilitator, lane.payTo, lane.funder].map((a) => a.address);
    });
    const worldAccounts = Object.values(devnetAccounts).map((account) => account.address);
    expect(new Set([...addresses, ...worldAccounts]).size).toBe(
      addresses.length + worldAccounts.length,
    );
  });
});

describe("sharedPaymentWorld", () => {
  it("hands this file a funded lane of the shared world and funds extra payers from it", async () => {
    const { world, lane, fund } = sharedPaymentWorld();
    expect(world.chains).toEqual(sharedWorld().chains);
    expect(world.accounts).toEqual(laneWorld(sharedWorld(), lane).accounts);
    expect(world.accounts.payer).toEqual(lane.payer);
    expect(world.accounts.facilitator).toEqual(lane.facilitator);
    expect(world.accounts.payTo).toEqual(lane.payTo);
    expect(world.accounts.faucet).toEqual(devnetAccounts.faucet);

    const base = createPublicClient({ transport: http(world.chains.base.rpcUrl) });
    const usdc = usdcBalanceOnBase(world.chains.base);
    // Nobody else has this lane, so its balances are exactly what the run's setup gave it.
    expect(await usdc(lane.payer.address)).toBe(laneFunds.payerUsdc);
    expect(await usdc(lane.payTo.address)).toBe(0n);
    expect(await base.getBalance({ address: lane.facilitator.address })).toBe(
      laneFunds.facilitatorEth,
    );

    const extra = privateKeyToAccount(generatePrivateKey()).address;
    await fund(extra, 2_500_000n);
    expect(await usdc(extra)).toBe(2_500_000n);
    expect(await usdc(lane.funder.address)).toBe(laneFunds.funderUsdc - 2_500_000n);
  });
});
