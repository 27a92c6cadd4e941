import { classifySpecialAddress, type SpecialAddress } from "../address/specialAddresses";
import type { ChainFacts, Checksum } from "../api/report";
import { chainActivity } from "./chainActivity";
import { isPositiveBalance } from "./isPositiveBalance";
import { joinNames } from "./joinNames";
import type { Finding } from "./summarizeFindings";

export type TargetInput = {
  address: string;
  checksum: Checksum;
  /** Facts on the chain the caller is about to send on. */
  target: ChainFacts;
};

function specialAddressFinding(special: SpecialAddress): Finding {
  switch (special.kind) {
    case "zero":
      return {
        code: "zero_address",
        level: "danger",
        message: "This is the zero address: nobody holds its key, so funds sent here are lost.",
        headline: "Zero address: funds sent here are lost",
        next: "Do not send: the zero address cannot spend what it receives.",
      };
    case "burn":
      return {
        code: "burn_address",
        level: "danger",
        message: `This is the ${special.label}: it exists to destroy tokens; funds sent here are lost.`,
        headline: "Burn address: funds sent here are lost",
        next: "Do not send: this is a burn address.",
      };
    case "precompile":
      return {
        code: "precompile",
        level: "danger",
        message: `This is the ${special.label}, built into the chain: it cannot send anything back.`,
        headline: "Precompiled contract, not a wallet",
        next: "Do not send: this is a precompiled contract, not a wallet.",
      };
    case "stablecoin": {
      const where = joinNames(special.chains ?? []);
      return {
        code: "stablecoin_contract",
        level: "danger",
        message: `This is the ${special.label} token contract on ${where}, not a wallet: tokens sent to it are usually lost for good.`,
        headline: `The ${special.label} contract on ${where}, not a wallet`,
        next: `Do not send: this is the ${special.label} contract on ${where}.`,
      };
    }
  }
}

function checksumFinding(checksum: Checksum): Finding | null {
  if (checksum.status === "invalid") {
    return {
      code: "checksum_invalid",
      level: "danger",
      message: "The EIP-55 checksum does not match: the address was probably mistyped or altered.",
      headline: "Wrong checksum: likely a typo",
      next: "Do not send: get the address again from the recipient.",
    };
  }
  if (checksum.status === "missing") {
    return {
      code: "checksum_missing",
      level: "caution",
      message: "No checksum (all one case): a typo in this address cannot be detected.",
      headline: "No checksum: typos cannot be detected",
      next: "Compare every character with the address the recipient gave you.",
    };
  }
  return null;
}

// Rules that read the target chain's facts (DESIGN §3); each returns the findings it proves.
function chainFindings(target: ChainFacts, special: SpecialAddress | null): Finding[] {
  const chain = target.name;
  if (target.status !== "ok") {
    const error = target.error ?? "unknown error";
    return [
      {
        code: "chain_unavailable",
        level: "caution",
        chain,
        message: `Could not verify: ${chain} could not be read (${error}).`,
        headline: `Could not verify on ${chain}`,
        next: `Check again later: nothing about this address is verified on ${chain}.`,
      },
    ];
  }
  const findings: Finding[] = [];
  const activity = chainActivity(target);
  const isTargetStablecoin = special?.kind === "stablecoin" && special.chains?.includes(chain);

  // The stablecoin finding already says which token this is; a generic one would repeat it.
  if (target.kind === "token" && !isTargetStablecoin) {
    findings.push({
      code: "token_contract",
      level: "danger",
      chain,
      message: `This is a token contract on ${chain}, not a wallet: tokens sent to it are usually lost.`,
      headline: `Token contract on ${chain}, not a wallet`,
      next: `Do not send: this is a token contract on ${chain}, not a wallet.`,
    });
  }
  if (target.kind === "contract") {
    findings.push({
      code: "unknown_contract",
      level: "warn",
      chain,
      message: `This is a contract on ${chain} that is not a known wallet type: it may not be able to move what it receives.`,
      headline: `Unknown contract on ${chain}`,
      next: `Confirm with the recipient that this contract can receive and move funds on ${chain}.`,
    });
  }
  if (target.kind === "eip7702-delegated") {
    const delegate = target.delegate ?? "an unknown contract";
    findings.push({
      code: "eip7702_delegated",
      level: "caution",
      chain,
      message: `This account delegates its code to ${delegate} (EIP-7702) on ${chain}: that code decides what happens to funds.`,
      headline: `Delegated account (EIP-7702) on ${chain}`,
      next: `Confirm with the recipient that they set the delegation to ${delegate}.`,
    });
  }

  const isWalletKind =
    target.kind === "eoa" || target.kind === "safe" || target.kind === "eip7702-delegated";
  const outgoingTxs = target.outgoingTxs;
  if (isWalletKind && outgoingTxs !== null && outgoingTxs > 0) {
    const wallet = target.kind === "safe" ? "Safe" : "wallet";
    const plural = outgoingTxs === 1 ? "transaction" : "transactions";
    findings.push({
      code: "active_wallet",
      level: "ok",
      chain,
      message: `Active ${wallet} on ${chain}: ${outgoingTxs} outgoing ${plural}.`,
      headline: `Active ${wallet} on ${chain}`,
      next: `Looks safe to send on ${chain}; double-check the address with the recipient.`,
    });
  } else if (isWalletKind && outgoingTxs === 0 && activity.holdsFunds) {
    findings.push({
      code: "receive_only",
      level: "caution",
      chain,
      message: `Holds funds on ${chain} but has never sent a transaction: an exchange deposit address or an unused wallet.`,
      headline: `Received funds on ${chain} but never sent`,
      next: "Send a small test amount first, and confirm the address with the recipient.",
    });
  } else if (isWalletKind && outgoingTxs === 0) {
    findings.push({
      code: "fresh_address",
      level: "caution",
      chain,
      message: `No transactions and no balances on ${chain}: this address has never been used here.`,
      headline: `Unused address on ${chain}`,
      next: "Send a small test amount first.",
    });
  }

  const bridged = target.usdcBridged;
  if (isPositiveBalance(bridged) && !isPositiveBalance(target.usdc)) {
    const symbol = bridged?.symbol ?? "bridged USDC";
    findings.push({
      code: "bridged_usdc_only",
      level: "caution",
      chain,
      message: `Holds ${symbol} (bridged USDC) but no native USDC on ${chain}: the two are different tokens.`,
      headline: `Holds only bridged USDC (${symbol}) on ${chain}`,
      next: `Ask the recipient whether they expect native USDC or ${symbol} on ${chain}.`,
    });
  }

  // Readable but unclassifiable (no kind, or no nonce for a wallet) proves nothing: never ok.
  if (target.kind === null || (isWalletKind && outgoingTxs === null)) {
    findings.push({
      code: "unclassified",
      level: "caution",
      chain,
      message: `Could not tell what this address is on ${chain}: part of the chain's answer was missing.`,
      headline: `Could not classify on ${chain}`,
      next: `Check again later: this address is not verified on ${chain}.`,
    });
  }
  return findings;
}

/**
 * The single-chain rules: what the address is, its checksum, and its facts on the target chain.
 * @example targetFindings({ address, checksum, target }).map((finding) => finding.code) // ["fresh_address"]
 */
export function targetFindings({ address, checksum, target }: TargetInput): Finding[] {
  const special = classifySpecialAddress(address);
  const checksumIssue = checksumFinding(checksum);
  return [
    ...(special ? [specialAddressFinding(special)] : []),
    ...(checksumIssue ? [checksumIssue] : []),
    ...chainFindings(target, special),
  ];
}
