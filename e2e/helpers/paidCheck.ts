import { expect, type Page } from "@playwright/test";
import { styles } from "@presend/extension/ui/styles";
import type { Address } from "viem";
import type { PresendServer } from "../fixtures/startPresendServer";
import type { TestWallet } from "../fixtures/testWallet";
import {
  type BadgeSnapshot,
  type BadgeTarget,
  clickBadgeButton,
  expandBadge,
  finished,
  waitForBadge,
} from "./badge";
import { dappFields, pasteInto } from "./enterAddress";
import { gate } from "./gate";

/** Pastes `address` into the dApp's field, then clicks a paid check (a person's click). */
export async function pasteAndClick(
  page: BadgeTarget,
  address: string,
  route: "check" | "deep",
  field: string = dappFields.input,
): Promise<void> {
  // A paste inserts at the caret: empty the field first, as a person replacing an address does.
  await page.locator(field).fill("");
  await pasteInto(page, field, address);
  await waitForBadge(page, (b) => b.visible && (b.expanded || "chip" in b.byTestId));
  await expandBadge(page);
  await waitForBadge(
    page,
    (b) => b.visible && b.byTestId.address === address && b.text.includes("Check $0.01"),
  );
  await clickBadgeButton(page, route);
}

/**
 * Holds the test wallet's signatures, pastes and clicks a paid check, and waits until the wallet
 * is asked to sign (the person has not decided yet). Returns what signs: the person deciding, at
 * the moment the test chooses.
 */
export async function pasteAndClickUntilWalletAsks(
  page: Page,
  wallet: TestWallet,
  address: string,
  route: "check" | "deep",
): Promise<() => void> {
  const decision = gate();
  wallet.state.holdSignatures = decision.promise;
  const asked = wallet.signRequests().length;
  await pasteAndClick(page, address, route);
  await expect.poll(() => wallet.signRequests().length, { timeout: 20_000 }).toBe(asked + 1);
  return () => {
    wallet.state.holdSignatures = null;
    decision.open();
  };
}

/** Pastes, clicks and waits for the paid check to end (verdict, refusal, rejection, failure). */
export async function pasteAndCheck(
  page: Page,
  address: string,
  route: "check" | "deep",
): Promise<BadgeSnapshot> {
  await pasteAndClick(page, address, route);
  return waitForBadge(page, finished, 30_000);
}

/**
 * What `balances` of the payer and payTo must read once the payer paid payTo `amount` since
 * `before` (one charge, nothing else moved).
 */
export function afterCharge(before: Record<string, bigint>, amount: bigint) {
  return { payer: (before.payer ?? 0n) - amount, payTo: (before.payTo ?? 0n) + amount };
}

/** USDC on local Base of the payer and of each payee, read together. */
export async function balances(api: PresendServer, addresses: Record<string, Address>) {
  const entries = await Promise.all(
    Object.entries(addresses).map(async ([name, address]) => [name, await api.usdcOnBase(address)]),
  );
  return Object.fromEntries(entries) as Record<string, bigint>;
}

/**
 * The background colour the extension's stylesheet gives a verdict level, as CSS rgb(), in the
 * light scheme or in the dark one (the level's rule inside the prefers-color-scheme: dark block).
 */
export function levelColour(level: string, scheme: "light" | "dark" = "light"): string {
  const dark = styles.indexOf("@media (prefers-color-scheme: dark)");
  const from = scheme === "dark" ? styles.slice(dark) : dark < 0 ? styles : styles.slice(0, dark);
  const match = new RegExp(`\\.level-${level} \\{ background: #([0-9a-f]{6})`).exec(from);
  if (!match?.[1]) throw new Error(`No colour for level ${level} in the stylesheet.`);
  const [r, g, b] = [0, 2, 4].map((i) => Number.parseInt(match[1]?.slice(i, i + 2) ?? "", 16));
  return `rgb(${r}, ${g}, ${b})`;
}

/** Whose USDC a paid check moves: the test wallet (the demo payer) and the server's payTo. */
export function payerAndPayTo(api: PresendServer, wallet: TestWallet) {
  return { payer: wallet.account.address, payTo: api.world.accounts.payTo.address };
}
