import { fileURLToPath } from "node:url";
import type { Level } from "@presend/shared/api/report";
import { type Address, getAddress, keccak256, stringToHex } from "viem";
import { devnetAccounts } from "./devnetAccounts";

/**
 * An address with the same first 4 and last 4 hex characters as `genuine` and a different
 * middle, made by editing those characters: grinding a key for it would take ~4 billion tries,
 * and a lookalike that must send transactions does so through anvil's impersonation.
 * @example lookalikeOf("0xAbCd…1234", "fresh") // "0xabcd…1234" with another middle
 */
export function lookalikeOf(genuine: Address, label: string): Address {
  const hex = genuine.slice(2).toLowerCase();
  const middle = keccak256(stringToHex(`presend lookalike: ${label}`)).slice(2, 34);
  return getAddress(`0x${hex.slice(0, 4)}${middle}${hex.slice(-4)}`);
}

const { poisoningVictim, genuineCounterparty, sprayedPoisoner, listedScam, exchangeDeposit } =
  devnetAccounts;

/** The sender-history part of the demo world on base (real transactions only, see seedSenderWorld). */
export const senderWorld = {
  /** How many USDC payments the victim made to its genuine counterparty. */
  genuinePayments: 6,
  /** Planted with one zero-value transferFrom(victim, lookalike, 0); never sent anything. */
  freshLookalike: lookalikeOf(genuineCounterparty.address, "fresh"),
  /** Planted the same way, then sent 2 transactions of its own (anvil impersonation). */
  activeLookalike: lookalikeOf(genuineCounterparty.address, "active"),
  /** The unrelated addresses whose histories got a zero-value transfer to sprayedPoisoner. */
  sprayVictims: [1, 2, 3, 4, 5].map((index) =>
    getAddress(`0x${keccak256(stringToHex(`presend spray victim ${index}`)).slice(-40)}`),
  ),
  /** USDC the exchange deposit address received and swept to the collector. */
  depositUsdc: "75",
} as const;

/** The local world's demo address list (JSON Lines), which `npm start` loads. */
export const demoAddressListFile = fileURLToPath(
  new URL("../lists/demo-world.jsonl", import.meta.url),
);

export type SenderDemoRow = {
  label: string;
  address: Address;
  chain: "base" | "ethereum";
  expected: { check: Level; deep: Level };
  /** The verdicts with `from` set to the victim (the sender with history), when they differ in kind. */
  withFrom: { from: Address; check: Level; deep: Level } | null;
  description: string;
};

const fromVictim = (check: Level, deep: Level) => ({ from: poisoningVictim.address, check, deep });

/** The demo rows of address poisoning, operator lists and exchange deposit addresses. */
export const senderDemoRows: SenderDemoRow[] = [
  {
    label: "sender-with-history",
    address: poisoningVictim.address,
    chain: "base",
    expected: { check: "ok", deep: "ok" },
    withFrom: null,
    description: `A sender with history: paid the genuine counterparty ${senderWorld.genuinePayments} times in USDC on base. Use it as \`from\` for the rows below.`,
  },
  {
    label: "genuine-counterparty",
    address: genuineCounterparty.address,
    chain: "base",
    expected: { check: "ok", deep: "ok" },
    withFrom: fromVictim("ok", "ok"),
    description:
      'The address the sender really pays (it sent one transaction of its own). With from: "you paid this address 6 times".',
  },
  {
    label: "fresh-lookalike",
    address: senderWorld.freshLookalike,
    chain: "base",
    expected: { check: "caution", deep: "caution" },
    withFrom: fromVictim("danger", "danger"),
    description:
      "Same first 4 and last 4 hex characters as the genuine counterparty, planted in the sender's history by a real zero-value transferFrom(victim, lookalike, 0) on USDC. Alone it looks unused; with from it is address poisoning.",
  },
  {
    label: "active-lookalike",
    address: senderWorld.activeLookalike,
    chain: "base",
    expected: { check: "ok", deep: "ok" },
    withFrom: fromVictim("danger", "danger"),
    description:
      "Another lookalike, planted the same way, that then sent 2 transactions of its own (through anvil's impersonation, real transactions): alone it looks like a used wallet; with from it is address poisoning.",
  },
  {
    label: "sprayed-poisoning-address",
    address: sprayedPoisoner.address,
    chain: "base",
    expected: { check: "warn", deep: "warn" },
    withFrom: fromVictim("warn", "warn"),
    description:
      'Received zero-value USDC transfers "from" five unrelated addresses (transferFrom with 0 needs no allowance): the fingerprint of a poisoning address.',
  },
  {
    label: "listed-scam",
    address: listedScam.address,
    chain: "base",
    expected: { check: "danger", deep: "danger" },
    withFrom: fromVictim("danger", "danger"),
    description:
      "Listed as a scam on base in the demo address list (devnet/lists/demo-world.jsonl).",
  },
  {
    label: "exchange-deposit-on-base",
    address: exchangeDeposit.address,
    chain: "base",
    expected: { check: "ok", deep: "ok" },
    withFrom: fromVictim("caution", "caution"),
    description:
      "An exchange deposit address: it received USDC on base and swept it to the exchange's collector, listed as exchange-collector in the demo list. With from: a first-time recipient.",
  },
  {
    label: "exchange-deposit-checked-for-ethereum",
    address: exchangeDeposit.address,
    chain: "ethereum",
    expected: { check: "caution", deep: "danger" },
    withFrom: fromVictim("caution", "danger"),
    description:
      "The same deposit address, about to be paid on ethereum: /check sees a fresh address there; /deep sees that it sweeps to the exchange on base only (deposits on a network the exchange does not watch are usually lost).",
  },
];
