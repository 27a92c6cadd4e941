import { visibleEnds } from "../address/visibleEnds";
import type { ChainHistory, PaymentSummary } from "../api/history";
import type { ChainFacts } from "../api/report";
import { type ChainName, chains } from "../chains/chains";
import { joinNames } from "./joinNames";
import type { Finding } from "./summarizeFindings";

export type SenderFindingsInput = {
  /** The checked address (EIP-55). */
  address: string;
  /** The sender (`from`), or null when the request named none. */
  from: string | null;
  /** The chain the money will be sent on. */
  target: ChainFacts;
  /** Other chains of a deep check (empty for a single-chain check). */
  others: readonly ChainFacts[];
};

function times(count: number): string {
  return count === 1 ? "once" : `${count} times`;
}

function lastPaid(payment: PaymentSummary): string {
  return payment.lastPaidAt === null
    ? `last in block ${payment.lastPaidBlock}`
    : `last on ${payment.lastPaidAt.slice(0, 10)}`;
}

/** What was read of the sender's history on a chain, in words (the first-time finding says it). */
export function historyScope(name: ChainName, history: ChainHistory): string {
  const tokens = `${joinNames(history.tokens)} transfers in blocks ${history.fromBlock}–${history.toBlock}`;
  const symbol = chains[name].nativeSymbol;
  switch (history.native.status) {
    case "read": {
      // The last transactions to or from the sender, not only its own: transfers others send it
      // (spam included) count among them, so the words say so rather than "your last".
      const last = `the last ${history.native.transactionsRead} transactions to or from you`;
      const internal = history.native.internal;
      if (!internal) return `${tokens} and the ${symbol} in ${last}`;
      const inner = `${internal.transactions} of them you took part in without signing (as a Safe or smart account does)`;
      return internal.status === "read"
        ? `${tokens} and ${last}, with the ${symbol} you sent in internal calls in the ${inner}`
        : `${tokens} and the ${symbol} of your own transactions among ${last}; ${inner}: the ${symbol} you sent in them through internal calls was not read (${internal.error ?? "unknown error"})`;
    }
    case "unknown":
      return `${tokens}; native ${chains[name].nativeSymbol} sends were not read (${history.native.error})`;
    case "not_asked":
      return tokens;
  }
}

type ReadChain = { name: ChainName; history: ChainHistory };

/** A lookalike of the checked address the sender paid, and the chain it was paid on. */
type PaidLookalike = { name: ChainName; payment: PaymentSummary };

/**
 * The lookalike the sender paid most on any chain read: a deep check reads them all, and an
 * address paid on one chain imitates one paid on another as well.
 */
function mostPaidLookalike(read: readonly ReadChain[]): PaidLookalike | null {
  let most: PaidLookalike | null = null;
  for (const entry of read) {
    const payment = entry.history.sender?.lookalikes[0];
    if (payment && (!most || payment.payments > most.payment.payments)) {
      most = { name: entry.name, payment };
    }
  }
  return most;
}

/** What a poisoner plants in the sender's history from or for this address, in words; "" if none. */
function plantedByThisAddress(read: readonly ReadChain[]): string {
  const zero = read.reduce(
    (sum, entry) => sum + (entry.history.sender?.zeroValueToRecipient ?? 0),
    0,
  );
  const dust = read.reduce((sum, entry) => sum + (entry.history.sender?.dustFromRecipient ?? 0), 0);
  const planted = [
    ...(zero > 0 ? [`a zero-value transfer "from" you to this address (${times(zero)})`] : []),
    ...(dust > 0 ? [`zero-value or dust transfers from it to you (${times(dust)})`] : []),
  ];
  return planted.length === 0
    ? ""
    : `Your history also shows ${planted.join(" and ")}: anyone can create those without your signature, and a poisoner does, to plant the lookalike where you copy addresses from.`;
}

/**
 * The sender paid this address and a lookalike of it. Danger when this one was planted in the
 * sender's history and the other was not, whatever the counts (a victim who fell for it pays it
 * twice: the test amount, then the rest), or when the other, never planted, was paid more; none
 * (the known counterparty) when this one, never planted, was paid more; warn otherwise: as often,
 * or the evidence points both ways (the one paid more was planted), so either may be the
 * imitation.
 */
function paidLookalikeFinding(
  name: ChainName,
  paid: PaymentSummary,
  genuine: PaidLookalike,
  planted: string,
): Finding | null {
  const where = chains[name].label;
  const other = genuine.payment;
  const otherWhere = genuine.name === name ? "" : ` on ${chains[genuine.name].label}`;
  const otherPlanted = (other.zeroValueFromSender ?? 0) > 0;
  const ends = visibleEnds(other.address);
  const both = `You paid this address ${times(paid.payments)} on ${where} (${lastPaid(paid)}) and ${other.address} ${times(other.payments)}${otherWhere} (${lastPaid(other)}): the same first 4 and last 4 hex characters (${ends}), a different middle.`;
  const poisoning = {
    code: "address_poisoning",
    level: "danger",
    chain: name,
    headline: `Address poisoning: a lookalike of ${ends} you paid`,
  } as const;
  if (other.payments > paid.payments && !otherPlanted) {
    return {
      ...poisoning,
      message: `This address imitates ${other.address}, the one you paid most. ${both} Your payment to this one was likely meant for the other: a poisoner waits for a small test payment to arrive before the real one.`,
      next: `Do not send: copy the address from the recipient, not from your history; the one you paid most is ${other.address}.`,
    };
  }
  if (planted !== "" && !otherPlanted) {
    return {
      ...poisoning,
      message: `This address imitates ${other.address}. ${both} ${planted} Your payments to this one were likely meant for the other.`,
      next: `Do not send: copy the address from the recipient, not from your history; the one it imitates is ${other.address}.`,
    };
  }
  // Paid more than its lookalike and never planted: the known counterparty (the imitation got a
  // victim's test payment).
  if (paid.payments > other.payments && planted === "") return null;
  const otherPlant = `A zero-value transfer "from" you to ${other.address} was planted in your history (${times(other.zeroValueFromSender ?? 0)}), which anyone can do without your signature`;
  const why = !otherPlanted
    ? " Two addresses that alike are almost never a coincidence: one of them likely imitates the other."
    : planted === ""
      ? ` ${otherPlant}: that one is likely the imitation, but presend cannot prove which is genuine.`
      : ` ${planted} ${otherPlant} too: either may be the imitation.`;
  return {
    code: "paid_lookalikes",
    level: "warn",
    chain: name,
    message: `${both}${why}`,
    headline: `You paid two addresses that look alike (${ends})`,
    next: "Confirm the whole address with the recipient through another channel before you send.",
  };
}

/**
 * What the sender's own payment history says about the checked address: address poisoning (a
 * lookalike of an address the sender really paid, never paid itself), a known counterparty, a
 * first-time recipient, or history that could not be read (never ok when a sender was given).
 * @example senderFindings({ address, from, target, others: [] })[0]?.code // "address_poisoning"
 */
export function senderFindings(input: SenderFindingsInput): Finding[] {
  const { from, target } = input;
  const all = [input.target, ...input.others.filter((facts) => facts.name !== target.name)];
  const withHistory = all.filter(
    (facts): facts is ChainFacts & { history: ChainHistory } => facts.history !== undefined,
  );
  const findings: Finding[] = [];
  for (const facts of withHistory) {
    if (facts.history.status !== "unknown") continue;
    const where = chains[facts.name].label;
    const why = facts.history.error ?? "the endpoint refused";
    findings.push(
      from === null
        ? {
            code: "history_unread",
            level: "caution",
            chain: facts.name,
            message: `The token history of this address on ${where} could not be read (${why}): the address-poisoning fingerprint was not checked there, so presend cannot tell whether this address plants itself in its victims' histories.`,
            headline: "Token history not read",
            next: "Compare the whole address with the one the recipient gave you before you send.",
          }
        : {
            code: "history_unknown",
            level: "caution",
            chain: facts.name,
            message: `Your payment history on ${where} could not be read (${why}): presend cannot tell whether this address imitates one you paid.`,
            headline: "Your payment history could not be read",
            next: "Compare the whole address with the one the recipient gave you before you send.",
          },
    );
  }
  if (from === null) return findings;

  const read: ReadChain[] = withHistory.flatMap((facts) =>
    facts.history.status === "read" && facts.history.sender
      ? [{ name: facts.name, history: facts.history }]
      : [],
  );
  // A smart account pays in internal calls: where those were not read, a genuine address it paid
  // in ETH stays unseen, and neither a payment to this one nor the absence of a lookalike is proof.
  for (const entry of read) {
    const native = entry.history.native;
    if (native.status !== "read" || native.internal?.status !== "unknown") continue;
    findings.push({
      code: "internal_sends_unknown",
      level: "caution",
      chain: entry.name,
      message: `The ${chains[entry.name].nativeSymbol} history of your smart account on ${chains[entry.name].label} could not be read: it pays in internal calls, inside ${native.internal.transactions} of the last ${native.transactionsRead} transactions to or from you, and those were not read (${native.internal.error ?? "unknown error"}). presend cannot tell whether this address imitates one you paid in ${chains[entry.name].nativeSymbol}.`,
      headline: "Your smart account's ETH payments could not be read",
      next: "Compare the whole address with the one the recipient gave you before you send.",
    });
  }
  const paidOn = read.filter((entry) => entry.history.sender?.paidRecipient);
  const genuine = mostPaidLookalike(read);
  const planted = plantedByThisAddress(read);
  for (const entry of paidOn) {
    const paid = entry.history.sender?.paidRecipient as PaymentSummary;
    // Two addresses with the same visible ends, both paid: one imitates the other (a 4+4 match by
    // chance is one in four billion), and a payment to this one proves nothing. Victims send a
    // test amount to the lookalike, see it arrive, then send the rest.
    const lookalike = genuine && paidLookalikeFinding(entry.name, paid, genuine, planted);
    if (lookalike) {
      findings.push(lookalike);
      continue;
    }
    findings.push({
      code: "known_counterparty",
      level: "ok",
      chain: entry.name,
      message: `You paid this address ${times(paid.payments)} on ${chains[entry.name].label}, ${lastPaid(paid)}.`,
      headline: "An address you have paid before",
      next: "Send as usual.",
    });
  }
  if (paidOn.length > 0) return findings;

  // The sender never paid this address anywhere that was read: a lookalike of one it did pay is
  // the poisoning pattern, whatever the address looks like on its own.
  for (const entry of read) {
    const sender = entry.history.sender;
    const genuine = sender?.lookalikes[0];
    if (!sender || !genuine) continue;
    const where = chains[entry.name].label;
    const planted =
      sender.zeroValueToRecipient > 0
        ? ` A zero-value transfer "from" you to this address appears in your history ${times(sender.zeroValueToRecipient)}: anyone can create one without your signature, to plant it where you copy addresses from.`
        : "";
    findings.push({
      code: "address_poisoning",
      level: "danger",
      chain: entry.name,
      message: `This address imitates ${genuine.address}, which you paid ${times(genuine.payments)} on ${where} (${lastPaid(genuine)}): the same first 4 and last 4 hex characters (${visibleEnds(genuine.address)}), a different middle. You never paid this one.${planted}`,
      headline: `Address poisoning: a lookalike of ${visibleEnds(genuine.address)} you paid`,
      next: `Do not send: copy the address from the recipient, not from your history; the one you paid is ${genuine.address}.`,
    });
  }
  if (findings.some((finding) => finding.code === "address_poisoning")) return findings;

  // Planted with no genuine address in what was read (paid before the window, in a token or a
  // native send not read): a zero-value transfer "from" the sender still says who put it there.
  for (const entry of read) {
    const planted = entry.history.sender?.zeroValueToRecipient ?? 0;
    if (planted === 0) continue;
    findings.push({
      code: "planted_in_history",
      level: "warn",
      chain: entry.name,
      message: `A zero-value transfer "from" you to this address appears in your history on ${chains[entry.name].label} ${times(planted)}, and you never paid it: anyone can create one without your signature, which is how address poisoning plants a lookalike of someone you paid where you copy addresses from.`,
      headline: "Planted in your history: likely address poisoning",
      next: "Do not copy this address from your history: get it from the recipient and compare every character.",
    });
  }

  // Dust from this address to the sender, never paid back: a poisoner sends it from a lookalike
  // of someone the sender pays, so the lookalike sits in the history the victim copies from.
  for (const entry of read) {
    const dust = entry.history.sender?.dustFromRecipient ?? 0;
    if (dust === 0) continue;
    findings.push({
      code: "dust_from_recipient",
      level: "warn",
      chain: entry.name,
      message: `This address sent you a zero-value or dust transfer (under 0.01) on ${chains[entry.name].label} ${times(dust)}, and you never paid it: address poisoning sends dust from a lookalike of someone you pay, so that it sits in your history where you copy addresses from.`,
      headline: "It sent you dust: likely address poisoning",
      next: "Do not copy this address from your history: get it from the recipient and compare every character.",
    });
  }

  const targetRead = read.find((entry) => entry.name === target.name);
  if (targetRead) {
    findings.push({
      code: "first_time_recipient",
      level: "caution",
      chain: target.name,
      message: `You have never paid this address on ${chains[target.name].label}: read ${historyScope(target.name, targetRead.history)}.`,
      headline: "You have never paid this address",
      next: "Confirm the whole address with the recipient through another channel before you send.",
    });
  }
  return findings;
}
