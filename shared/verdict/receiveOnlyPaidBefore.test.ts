import { describe, expect, it } from "vitest";
import { receiveOnlyPaidBefore } from "./receiveOnlyPaidBefore";
import type { Finding } from "./summarizeFindings";

const receiveOnly: Finding = {
  code: "receive_only",
  level: "caution",
  chain: "base",
  message:
    "Holds USDC on Base but has never sent a transaction: an exchange deposit address or an unused wallet.",
  headline: "Received funds on Base but never sent",
  next: "Send a small test amount first, and confirm the address with the recipient.",
};
const paid = (chain: Finding["chain"]): Finding => ({
  code: "known_counterparty",
  level: "ok",
  chain,
  message: "You paid this address 5 times.",
  headline: "An address you have paid before",
  next: "Send as usual.",
});
const checksumMissing: Finding = {
  code: "checksum_missing",
  level: "caution",
  message: "No checksum (all one case): a typo in this address cannot be detected.",
  headline: "No checksum: typos cannot be detected",
  next: "Compare every character with the address the recipient gave you.",
};

describe("receiveOnlyPaidBefore", () => {
  it("lowers receive_only to ok when the sender paid the address on that chain, saying so", () => {
    const [settled] = receiveOnlyPaidBefore([receiveOnly, paid("base")], "base");
    expect(settled).toMatchObject({ code: "receive_only", level: "ok", next: "Send as usual." });
    expect(settled?.message).toContain("You have paid it before on Base.");
  });

  it("keeps it caution when the payments were on another chain, or there were none", () => {
    expect(receiveOnlyPaidBefore([receiveOnly, paid("arbitrum")], "base")[0]?.level).toBe(
      "caution",
    );
    expect(receiveOnlyPaidBefore([receiveOnly], "base")[0]?.level).toBe("caution");
  });

  it("leaves every other finding as it was", () => {
    const findings = [checksumMissing, receiveOnly, paid("base")];
    expect(receiveOnlyPaidBefore(findings, "base")[0]).toBe(checksumMissing);
  });
});
