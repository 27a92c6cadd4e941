import type { ListMatch } from "../api/addressLists";
import type { ChainFacts } from "../api/report";
import { chains } from "../chains/chains";
import { chainLabels } from "./chainLabels";
import type { Finding } from "./summarizeFindings";

function from(match: ListMatch): string {
  return `(list: ${match.source}, ${match.date})`;
}

/**
 * What the operator's address lists say: a listed scam or drainer is danger on its chains (warn
 * when listed on another chain only), an exchange collector or protocol contract is not a
 * deposit address (warn), an address that sweeps its tokens to a listed exchange collector is
 * that exchange's deposit address, and on a network where it never swept (deep) deposits are
 * usually lost (danger).
 * @example listFindings({ matches, target, others: [] })[0]?.code // "listed_scam"
 */
export function listFindings(input: {
  matches: readonly ListMatch[];
  target: ChainFacts;
  /** Other chains of a deep check; empty for a single-chain check. */
  others: readonly ChainFacts[];
}): Finding[] {
  const { target } = input;
  const deep = input.others.length > 0;
  const findings: Finding[] = [];
  const onTarget = input.matches.filter((match) => match.chain === target.name);
  for (const match of onTarget.filter((entry) => entry.role === "recipient")) {
    const listedHere = match.listedOn.includes(target.name);
    if (match.category === "scam" || match.category === "drainer") {
      const what = match.category === "scam" ? "a scam address" : "a wallet drainer";
      findings.push(
        listedHere
          ? {
              code: `listed_${match.category}`,
              level: "danger",
              chain: target.name,
              message: `Listed as ${what}: ${match.label} ${from(match)}.`,
              headline: `Listed as ${what}`,
              next: "Do not send: this address is on a list of known thieves.",
            }
          : {
              code: `listed_${match.category}_elsewhere`,
              level: "warn",
              chain: target.name,
              message: `Listed as ${what} on ${chainLabels(match.listedOn)} (not on ${chains[target.name].label}): ${match.label} ${from(match)}.`,
              headline: `Listed as ${what} on another network`,
              next: "Do not send unless you know why this address is listed.",
            },
      );
    } else if (match.category === "exchange-collector") {
      findings.push({
        code: "exchange_collector",
        level: "warn",
        chain: target.name,
        message: `This is ${match.label}, an exchange's own collector wallet, not a deposit address ${from(match)}: a deposit sent here may never be credited to anyone.`,
        headline: `Exchange collector wallet (${match.label})`,
        next: "Send to the deposit address your exchange account shows, not to this one.",
      });
    } else {
      findings.push({
        code: "listed_protocol",
        level: "warn",
        chain: target.name,
        message: `This is ${match.label}, a protocol contract, not a wallet ${from(match)}: funds sent to it directly are usually not credited to anyone.`,
        headline: `Protocol contract (${match.label})`,
        next: "Do not send directly: use the protocol's own app.",
      });
    }
  }
  const sweeps = input.matches.filter((match) => match.role === "sweeps-to");
  const sweepsHere = sweeps.filter((match) => match.chain === target.name);
  for (const match of sweepsHere) {
    findings.push({
      code: "exchange_deposit",
      level: "ok",
      chain: target.name,
      message: `Exchange deposit address (${match.label}): on ${chains[target.name].label} its tokens go to the exchange's collector ${match.address} ${from(match)}.`,
      headline: `Exchange deposit address (${match.label})`,
      next: "Send only the token and network the exchange lists for this deposit address.",
    });
  }
  if (deep && sweepsHere.length === 0) {
    const elsewhere = sweeps.filter((match) => match.chain !== target.name);
    const first = elsewhere[0];
    if (first) {
      const networks = chainLabels([...new Set(elsewhere.map((match) => match.chain))]);
      findings.push({
        code: "exchange_deposit_wrong_network",
        level: "danger",
        chain: first.chain,
        message: `Exchange deposit address (${first.label}) on ${networks}, where its tokens go to the exchange's collector ${from(first)}; it was never swept on ${chains[target.name].label}. Exchanges credit deposits only on the networks they watch: sent on another one, they are usually lost.`,
        headline: `Exchange deposit address (${first.label}) on ${networks}, not ${chains[target.name].label}`,
        next: `Do not send on ${chains[target.name].label}: use the network the exchange shows for this address.`,
      });
    }
  }
  return findings;
}
