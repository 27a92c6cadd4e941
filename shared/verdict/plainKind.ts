import type { ChainFacts } from "../api/report";

/**
 * What an address is, in the words of a person about to send money (wallet, smart wallet, Safe,
 * token contract, NFT collection, contract): the reasons say this. The technical label
 * (`kindLabel`: EOA, EIP-7702, ERC-4337, the delegate's address) stays in the facts, which the
 * card shows behind its details.
 * @example plainKind({ ...facts, kind: "eoa" }) // "wallet"
 */
export function plainKind(facts: ChainFacts): string {
  const symbol = facts.token?.symbol;
  switch (facts.kind) {
    case "eoa":
      return "wallet";
    case "eip7702-delegated": {
      // A wallet that handed its code to known wallet software is a smart wallet; any other
      // delegation is said in the reason itself.
      const assessment = facts.delegateAssessment;
      if (assessment?.category !== "wallet") return "wallet";
      return vendorWallet(facts.vendor ?? assessment.label);
    }
    case "safe":
      return facts.safe
        ? `Safe shared wallet (${facts.safe.threshold} of ${facts.safe.owners} owners sign)`
        : "Safe shared wallet";
    case "smart-account":
      // An ERC-7579 account names itself (`accountId()`): its own text, not a vendor's name.
      if (facts.vendor && facts.kindLabel?.startsWith("ERC-7579")) {
        return `smart wallet (${facts.vendor})`;
      }
      return vendorWallet(facts.vendor);
    case "token":
      return `token contract${symbol ? ` (${symbol})` : ""}`;
    case "nft":
      return `NFT collection${symbol ? ` (${symbol})` : ""}`;
    case "contract":
      // A protocol contract's label is its name and operator ("Permit2 (Uniswap)").
      return facts.kindLabel ?? "contract";
    default:
      return "address";
  }
}

/** "smart wallet", or the vendor's name when it already says wallet ("Coinbase Smart Wallet"). */
function vendorWallet(vendor: string | null | undefined): string {
  if (!vendor) return "smart wallet";
  return /wallet/i.test(vendor) ? vendor : `${vendor} smart wallet`;
}
