import { describe, expect, it } from "vitest";
import type { ChainHistory, PaymentSummary } from "../api/history";
import type { ChainFacts, Level } from "../api/report";
import type { ChainName } from "../chains/chains";
import { readableFacts } from "./chainFacts.test-helpers";
import { decideDeepVerdict } from "./decideDeepVerdict";
import { decideVerdict } from "./decideVerdict";
import { senderFindings } from "./senderFindings";

const recipient = "0xAbcd999999999999999999999999999999991234";
const genuine = "0xAbcd000000000000000000000000000000001234";
const from = "0x1111111111111111111111111111111111111111";
const checksum = { status: "valid", message: "Address checksum is correct." } as const;

const paid = (address: string, payments: number): PaymentSummary => ({
  address,
  payments,
  lastPaidAt: "2026-11-20T10:00:00.000Z",
  lastPaidBlock: "90",
});

function history(spec: {
  status?: ChainHistory["status"];
  paidRecipient?: number;
  lookalike?: number;
  /** Zero-value transfers "from" the sender to the lookalike. */
  lookalikePlanted?: number;
  planted?: number;
  dust?: number;
  native?: ChainHistory["native"];
  withSender?: boolean;
}): ChainHistory {
  if (spec.status === "unknown") {
    return {
      status: "unknown",
      error: "block range too large",
      tokens: ["USDC", "USDT"],
      fromBlock: null,
      toBlock: null,
      native: spec.native ?? { status: "not_asked" },
      sender: null,
      recipient: null,
    };
  }
  return {
    status: "read",
    tokens: ["USDC", "USDT"],
    fromBlock: "0",
    toBlock: "100",
    native: spec.native ?? { status: "read", transactionsRead: 25 },
    sender:
      spec.withSender === false
        ? null
        : {
            address: from,
            counterparties: 3,
            paidRecipient: spec.paidRecipient ? paid(recipient, spec.paidRecipient) : null,
            lookalikes: spec.lookalike
              ? [
                  {
                    ...paid(genuine, spec.lookalike),
                    ...(spec.lookalikePlanted && { zeroValueFromSender: spec.lookalikePlanted }),
                  },
                ]
              : [],
            zeroValueToRecipient: spec.planted ?? 0,
            dustFromRecipient: spec.dust ?? 0,
          },
    recipient: {
      transfers: 1,
      zeroValueTransfers: 0,
      dustTransfers: 0,
      zeroOrDustCounterparties: 0,
      sentTo: [],
    },
  };
}

const facts = (name: ChainName, chainHistory: ChainHistory, nonce = 2): ChainFacts => ({
  ...readableFacts(name, { nonce, native: "1" }),
  history: chainHistory,
});

type Row = {
  name: string;
  from: string | null;
  target: ChainFacts;
  others?: ChainFacts[];
  codes: string[];
  level: Level;
  mentions?: string[];
};

const rows: Row[] = [
  {
    name: "a lookalike of an address the sender paid 6 times, never paid itself: poisoning, naming the genuine one",
    from,
    target: facts("base", history({ lookalike: 6, planted: 1 }), 0),
    codes: ["address_poisoning", "receive_only"],
    level: "danger",
    mentions: [genuine, "6 times", "first 4 and last 4", "2026-11-20", "zero-value"],
  },
  {
    name: "an active lookalike (2 own transactions) is still poisoning, not ok",
    from,
    target: facts("base", history({ lookalike: 2 }), 2),
    codes: ["address_poisoning", "active_wallet"],
    level: "danger",
  },
  {
    name: "an address the sender paid: a known counterparty, shown as a fact",
    from,
    target: facts("base", history({ paidRecipient: 6 })),
    codes: ["known_counterparty", "active_wallet"],
    level: "ok",
    mentions: ["You paid this address 6 times on Base, last on 2026-11-20"],
  },
  {
    // Victims send a test amount to the lookalike, see it arrive, then send the rest.
    name: "paid once, a lookalike of an address paid 3 times: still poisoning, naming both payments",
    from,
    target: facts("base", history({ paidRecipient: 1, lookalike: 3 })),
    codes: ["address_poisoning", "active_wallet"],
    level: "danger",
    mentions: ["You paid this address once on Base", `${genuine} 3 times`, "the one you paid most"],
  },
  {
    name: "paid more often than its lookalike: the known counterparty",
    from,
    target: facts("base", history({ paidRecipient: 3, lookalike: 1 })),
    codes: ["known_counterparty", "active_wallet"],
    level: "ok",
  },
  {
    // The victim paid the genuine one once, then the planted lookalike a test amount and the rest.
    name: "paid more often than its lookalike but planted in the history: poisoning, naming the other",
    from,
    target: facts("base", history({ paidRecipient: 2, lookalike: 1, planted: 1 })),
    codes: ["address_poisoning", "active_wallet"],
    level: "danger",
    mentions: [
      "You paid this address 2 times on Base",
      `${genuine} once`,
      'zero-value transfer "from" you to this address (once)',
    ],
  },
  {
    name: "paid more often than its lookalike after it sent the sender dust: poisoning",
    from,
    target: facts("base", history({ paidRecipient: 3, lookalike: 1, dust: 2 })),
    codes: ["address_poisoning", "active_wallet"],
    level: "danger",
    mentions: ["zero-value or dust transfers from it to you (2 times)"],
  },
  {
    // The same victim checking the genuine one: the lookalike paid more was the one planted.
    name: "paid less often than a lookalike that was planted: warn naming the planted one, never danger pointing to it",
    from,
    target: facts("base", history({ paidRecipient: 1, lookalike: 2, lookalikePlanted: 1 })),
    codes: ["paid_lookalikes", "active_wallet"],
    level: "warn",
    mentions: [`A zero-value transfer "from" you to ${genuine} was planted in your history (once)`],
  },
  {
    name: "both planted, both paid: warn, either may be the imitation",
    from,
    target: facts(
      "base",
      history({ paidRecipient: 2, lookalike: 1, planted: 1, lookalikePlanted: 1 }),
    ),
    codes: ["paid_lookalikes", "active_wallet"],
    level: "warn",
    mentions: ["either may be the imitation"],
  },
  {
    name: "paid more often than a planted lookalike: the known counterparty",
    from,
    target: facts("base", history({ paidRecipient: 5, lookalike: 1, lookalikePlanted: 1 })),
    codes: ["known_counterparty", "active_wallet"],
    level: "ok",
  },
  {
    name: "paid as often as its lookalike: either may imitate the other, warn",
    from,
    target: facts("base", history({ paidRecipient: 2, lookalike: 2 })),
    codes: ["paid_lookalikes", "active_wallet"],
    level: "warn",
    mentions: ["You paid this address 2 times on Base", `${genuine} 2 times`],
  },
  {
    // The genuine one was paid outside what was read; the planted transfer still shows.
    name: "never paid, no lookalike read, but a zero-value transfer from the sender to it: planted, warn",
    from,
    target: facts("base", history({ planted: 2 })),
    codes: ["planted_in_history", "first_time_recipient", "active_wallet"],
    level: "warn",
    mentions: [
      'A zero-value transfer "from" you to this address appears in your history on Base 2 times',
    ],
  },
  {
    // The lookalike sent the victim dust; the genuine one was paid outside what was read.
    name: "never paid, no lookalike read, but it sent the sender dust: poisoning's planted transfer, warn",
    from,
    target: facts("base", history({ dust: 1 })),
    codes: ["dust_from_recipient", "first_time_recipient", "active_wallet"],
    level: "warn",
    mentions: ["This address sent you a zero-value or dust transfer (under 0.01) on Base once"],
  },
  {
    name: "a smart account's internal ETH sends not read: never ok, even for an address it paid in tokens",
    from,
    target: facts(
      "base",
      history({
        paidRecipient: 2,
        native: {
          status: "read",
          transactionsRead: 4,
          internal: { status: "unknown", transactions: 3, error: "no ots_getInternalOperations" },
        },
      }),
    ),
    codes: ["internal_sends_unknown", "known_counterparty", "active_wallet"],
    level: "caution",
    mentions: [
      "The ETH history of your smart account on Base could not be read",
      "inside 3 of the last 4 transactions to or from you",
    ],
  },
  {
    name: "a smart account's internal ETH sends not read: the first-time message says exactly what was read",
    from,
    target: facts(
      "base",
      history({
        native: {
          status: "read",
          transactionsRead: 4,
          internal: { status: "unknown", transactions: 3, error: "no ots_getInternalOperations" },
        },
      }),
    ),
    codes: ["internal_sends_unknown", "first_time_recipient", "active_wallet"],
    level: "caution",
    mentions: [
      "and the ETH of your own transactions among the last 4 transactions to or from you; 3 of them you took part in without signing (as a Safe or smart account does): the ETH you sent in them through internal calls was not read (no ots_getInternalOperations)",
    ],
  },
  {
    name: "a smart account's internal ETH sends read: the first-time message says they were",
    from,
    target: facts(
      "base",
      history({
        native: {
          status: "read",
          transactionsRead: 4,
          internal: { status: "read", transactions: 3 },
        },
      }),
    ),
    codes: ["first_time_recipient", "active_wallet"],
    level: "caution",
    mentions: [
      "and the last 4 transactions to or from you, with the ETH you sent in internal calls in the 3 of them you took part in without signing",
    ],
  },
  {
    name: "never paid: first-time recipient, saying what was read",
    from,
    target: facts("base", history({})),
    codes: ["first_time_recipient", "active_wallet"],
    level: "caution",
    mentions: [
      "USDC and USDT transfers in blocks 0–100 and the ETH in the last 25 transactions to or from you",
    ],
  },
  {
    name: "never paid, native not readable: first-time recipient names the unread native sends",
    from,
    target: facts("base", history({ native: { status: "unknown", error: "no ots_ methods" } })),
    codes: ["first_time_recipient", "active_wallet"],
    level: "caution",
    mentions: ["native ETH sends were not read (no ots_ methods)"],
  },
  {
    name: "history refused with a sender: history unknown, caution, never ok",
    from,
    target: facts("base", history({ status: "unknown" })),
    codes: ["history_unknown", "active_wallet"],
    level: "caution",
    mentions: ["block range too large"],
  },
  {
    name: "history refused without a sender: the fingerprint unread, caution, never ok",
    from: null,
    target: facts("base", history({ status: "unknown" })),
    codes: ["history_unread", "active_wallet"],
    level: "caution",
    mentions: ["block range too large", "fingerprint was not checked"],
  },
  {
    name: "without a sender nothing is said about payments",
    from: null,
    target: facts("base", history({ withSender: false })),
    codes: ["active_wallet"],
    level: "ok",
  },
];

describe("senderFindings", () => {
  it.each(rows)("$name", (row) => {
    const verdict = decideVerdict({
      address: recipient,
      checksum,
      target: row.target,
      from: row.from,
    });
    expect(verdict.reasons.map((reason) => reason.code)).toEqual(row.codes);
    expect(verdict.level).toBe(row.level);
    const text = verdict.reasons.map((reason) => reason.message).join(" ");
    for (const phrase of row.mentions ?? []) expect(text).toContain(phrase);
  });

  it("deep: a lookalike of a counterparty paid on another chain is poisoning too", () => {
    const verdict = decideDeepVerdict({
      address: recipient,
      checksum,
      from,
      target: facts("base", history({})),
      others: [facts("arbitrum", history({ lookalike: 4 }))],
    });
    expect(verdict.level).toBe("danger");
    expect(verdict.reasons[0]).toMatchObject({ code: "address_poisoning", chain: "arbitrum" });
  });

  it("deep: paid here, a lookalike paid more on another chain: poisoning, naming the other chain", () => {
    const verdict = decideDeepVerdict({
      address: recipient,
      checksum,
      from,
      target: facts("base", history({ paidRecipient: 1 })),
      others: [facts("ethereum", history({ lookalike: 4 }))],
    });
    expect(verdict.level).toBe("danger");
    expect(verdict.reasons[0]).toMatchObject({ code: "address_poisoning", chain: "base" });
    expect(verdict.reasons[0]?.message).toContain(`${genuine} 4 times on Ethereum`);
    expect(verdict.reasons.map((reason) => reason.code)).not.toContain("known_counterparty");
  });

  it("deep: history unknown on another chain with a sender is caution, named with its chain", () => {
    const findings = senderFindings({
      address: recipient,
      from,
      target: facts("base", history({ paidRecipient: 2 })),
      others: [facts("polygon", history({ status: "unknown" }))],
    });
    expect(findings.map((finding) => [finding.code, finding.chain])).toEqual([
      ["history_unknown", "polygon"],
      ["known_counterparty", "base"],
    ]);
  });
});
