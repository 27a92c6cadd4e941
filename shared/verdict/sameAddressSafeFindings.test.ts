import { describe, expect, it } from "vitest";
import type { ChainFacts } from "../api/report";
import type { ChainName } from "../chains/chains";
import { readableFacts } from "./chainFacts.test-helpers";
import { sameAddressSafeFindings } from "./sameAddressSafeFindings";

const [alice, bob, carol, mallory, trent] = [
  "0x1111111111111111111111111111111111111111",
  "0x2222222222222222222222222222222222222222",
  "0x3333333333333333333333333333333333333333",
  "0x4444444444444444444444444444444444444444",
  "0x5555555555555555555555555555555555555555",
];
const singleton = "0x3E5c63644E683549055b9Be8653de26E0B4CD36E";

function safeOn(
  name: ChainName,
  owners: readonly string[],
  threshold: number,
  options: { singleton?: string; listed?: boolean } = {},
): ChainFacts {
  return {
    ...readableFacts(name, { kind: "safe", nonce: 1 }),
    isContract: true,
    safe: {
      owners: owners.length,
      threshold,
      singleton: options.singleton ?? singleton,
      ...(options.listed !== false && { ownerAddresses: [...owners] }),
    },
  };
}

const codes = (findings: ReturnType<typeof sameAddressSafeFindings>) =>
  findings.map(({ code, level }) => `${code}:${level}`);

describe("sameAddressSafeFindings", () => {
  const ethereum = safeOn("ethereum", [alice, bob], 1);

  it("says nothing of the same Safe on both chains", () => {
    expect(sameAddressSafeFindings(safeOn("base", [bob, alice], 1), [ethereum])).toEqual([]);
  });

  it("is danger when owners who are not owners elsewhere can sign alone (an address taken)", () => {
    const [finding, ...rest] = sameAddressSafeFindings(safeOn("base", [mallory], 1), [ethereum]);
    expect(rest).toEqual([]);
    expect(finding).toMatchObject({
      code: "safe_taken_here",
      level: "danger",
      chain: "ethereum",
      headline: "Not the same Safe on Base as on Ethereum",
    });
    // An owner copied from elsewhere does not help when the strangers reach the threshold.
    expect(
      codes(sameAddressSafeFindings(safeOn("base", [alice, mallory, trent], 2), [ethereum])),
    ).toEqual(["safe_taken_here:danger"]);
  });

  it("is warn when the Safe here runs another singleton", () => {
    const here = safeOn("base", [alice, bob], 1, {
      singleton: "0x41675C099F32341bf84BFc5382aF534df5C7461a",
    });
    expect(codes(sameAddressSafeFindings(here, [ethereum]))).toEqual(["safe_code_differs:warn"]);
  });

  it("is caution when owners differ but every quorum here needs an owner from elsewhere", () => {
    const [finding] = sameAddressSafeFindings(safeOn("base", [alice, carol], 2), [ethereum]);
    expect(finding).toMatchObject({ code: "safe_owners_differ", level: "caution" });
    expect(finding?.message).toContain(
      "any signing quorum here still needs an owner from Ethereum",
    );
  });

  it("compares only counts when an owner list is incomplete, and claims no quorum", () => {
    const [finding] = sameAddressSafeFindings(safeOn("base", [alice, carol, trent], 2), [
      safeOn("ethereum", [alice, bob], 1, { listed: false }),
    ]);
    expect(finding).toMatchObject({ code: "safe_owners_differ", level: "caution" });
    expect(finding?.message).not.toContain("quorum");
  });

  it("is danger when a Safe elsewhere is some other contract here", () => {
    const here = { ...readableFacts("base", { kind: "contract" }), isContract: true };
    const [finding] = sameAddressSafeFindings(here, [ethereum]);
    expect(finding).toMatchObject({
      code: "safe_taken_here",
      level: "danger",
      headline: "Safe on Ethereum, but something else on Base",
    });
  });

  it("leaves an address without code here, or without a Safe elsewhere, to the other rules", () => {
    expect(sameAddressSafeFindings(readableFacts("base"), [ethereum])).toEqual([]);
    const contractHere = { ...readableFacts("base", { kind: "contract" }), isContract: true };
    expect(sameAddressSafeFindings(contractHere, [readableFacts("ethereum")])).toEqual([]);
  });
});
