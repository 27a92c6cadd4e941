import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chains } from "@presend/shared/chains/chains";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { type Address, erc20Abi, type Hash, parseEther, parseUnits } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { artifacts } from "../contracts/artifacts";
import { type DevnetAccount, devnetAccounts } from "../devnetAccounts";
import { devnetClient } from "../devnetClient";
import { devnetPrivateKey } from "../devnetPrivateKey";
import type { World } from "../startWorld";

/**
 * The x402 roles of one test file on the shared world. Each file that pays gets its own payer,
 * facilitator and payTo, so its balances, its facilitator's transaction nonces and its payment
 * records are its own while other files pay on the same chains at the same time. The funder holds
 * USDC and ETH for the file's own extra accounts (the faucet, the only minter, is used once, by
 * the run's setup, so two processes never race for its nonce).
 */
export type PaymentLane = {
  index: number;
  payer: DevnetAccount;
  facilitator: DevnetAccount;
  payTo: DevnetAccount;
  funder: DevnetAccount;
};

/** Enough lanes for every paying test file of the run (a file claims one, never gives it back). */
export const paymentLaneCount = 80;

/** What a lane's accounts hold when the run starts. */
export const laneFunds = {
  payerUsdc: parseUnits("1000", 6),
  payerEth: parseEther("1"),
  facilitatorEth: parseEther("10"),
  funderUsdc: parseUnits("1000000", 6),
  funderEth: parseEther("100"),
} as const;

function laneAccount(index: number, role: string): DevnetAccount {
  const label = `lane-${index}-${role}`;
  const privateKey = devnetPrivateKey(label);
  return { label, privateKey, address: privateKeyToAccount(privateKey).address };
}

/**
 * Lane `index`'s accounts. Derived from labels like every devnet account, so a lane is the same
 * on every run.
 * @example paymentLane(0).payer.address
 */
export function paymentLane(index: number): PaymentLane {
  return {
    index,
    payer: laneAccount(index, "payer"),
    facilitator: laneAccount(index, "facilitator"),
    payTo: laneAccount(index, "pay-to"),
    funder: laneAccount(index, "funder"),
  };
}

/**
 * Funds every lane on the world's Base chain, in one process before any test file runs: ETH by
 * anvil's setBalance, USDC by real mints from the faucet. The mints are sent one after another
 * with consecutive nonces, without waiting for each to be mined, then all confirmed.
 * @example await fundPaymentLanes(world);
 */
export async function fundPaymentLanes(world: Omit<World, "stop">): Promise<void> {
  const base = devnetClient("base", world.chains.base.rpcUrl);
  const minter = privateKeyToAccount(devnetAccounts.faucet.privateKey);
  const lanes = Array.from({ length: paymentLaneCount }, (_, index) => paymentLane(index));
  await Promise.all(
    lanes.flatMap((lane) => [
      base.setBalance({ address: lane.payer.address, value: laneFunds.payerEth }),
      base.setBalance({ address: lane.facilitator.address, value: laneFunds.facilitatorEth }),
      base.setBalance({ address: lane.funder.address, value: laneFunds.funderEth }),
    ]),
  );
  const mints = lanes.flatMap((lane) => [
    [lane.payer.address, laneFunds.payerUsdc] as const,
    [lane.funder.address, laneFunds.funderUsdc] as const,
  ]);
  const first = await base.getTransactionCount({ address: minter.address, blockTag: "pending" });
  const sent: Hash[] = [];
  for (const [index, [to, amount]] of mints.entries()) {
    sent.push(
      await base.writeContract({
        account: minter,
        address: chains.base.usdc.address,
        abi: artifacts.PresendStablecoin.abi,
        functionName: "mint",
        args: [to, amount],
        nonce: first + index,
        gas: 100_000n,
      }),
    );
  }
  await Promise.all(sent.map((hash) => base.confirm(hash)));
}

/**
 * Takes the first lane no other test file of this run has taken: a directory per lane, created
 * with mkdir, which fails for all but one process.
 * @example const lane = claimPaymentLane(laneDir);
 */
export function claimPaymentLane(laneDir: string): PaymentLane {
  for (let index = 0; index < paymentLaneCount; index += 1) {
    try {
      mkdirSync(join(laneDir, String(index)));
      return paymentLane(index);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
  }
  throw new ConfigurationError(
    `all ${paymentLaneCount} payment lanes of the shared world are taken; raise paymentLaneCount`,
  );
}

/**
 * The world as one lane sees it: the shared chains, with the lane's payer, facilitator and payTo
 * in place of the world's own (what startPaidStack and the tests read).
 * @example startPaidStack({ world: laneWorld(world, lane) })
 */
export function laneWorld(world: World, lane: PaymentLane): World {
  return {
    ...world,
    accounts: {
      ...world.accounts,
      payer: lane.payer,
      facilitator: lane.facilitator,
      payTo: lane.payTo,
    },
  };
}

/**
 * Gives `to` USDC from the lane's funder, in a real transfer on Base.
 * @example await fundFromLane(world, lane, payer.address, 1_000_000n);
 */
export async function fundFromLane(
  world: Omit<World, "stop">,
  lane: PaymentLane,
  to: Address,
  usdc: bigint,
): Promise<void> {
  const base = devnetClient("base", world.chains.base.rpcUrl);
  const funder = privateKeyToAccount(lane.funder.privateKey);
  await base.confirm(
    base.writeContract({
      account: funder,
      address: chains.base.usdc.address,
      abi: erc20Abi,
      functionName: "transfer",
      args: [to, usdc],
    }),
  );
}
