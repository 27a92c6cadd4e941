import { describe, expect, it } from "vitest";
import type { ListMatch } from "../api/addressLists";
import type { Level } from "../api/report";
import { readableFacts } from "./chainFacts.test-helpers";
import { decideDeepVerdict } from "./decideDeepVerdict";
import { decideVerdict } from "./decideVerdict";

const address = "0x3333333333333333333333333333333333333333";
const collector = "0x4444444444444444444444444444444444444444";
const checksum = { status: "valid", message: "Address checksum is correct." } as const;
const listed = (spec: Partial<ListMatch>): ListMatch => ({
  role: "recipient",
  chain: "base",
  address,
  label: "Demo scam",
  category: "scam",
  listedOn: ["base"],
  source: "demo list",
  date: "2026-11-24",
  ...spec,
});
const active = readableFacts("base", { nonce: 4 });

describe("listFindings", () => {
  it.each<{ name: string; matches: ListMatch[]; level: Level; code: string }>([
    {
      name: "a scam listed on this chain: danger",
      matches: [listed({})],
      level: "danger",
      code: "listed_scam",
    },
    {
      name: "a drainer: danger",
      matches: [listed({ category: "drainer", label: "Drainer" })],
      level: "danger",
      code: "listed_drainer",
    },
    {
      name: "a scam listed for another chain only: warn, not danger, naming the chain",
      matches: [listed({ listedOn: ["ethereum"] })],
      level: "warn",
      code: "listed_scam_elsewhere",
    },
    {
      name: "an exchange collector itself: warn",
      matches: [listed({ category: "exchange-collector", label: "Exchange X" })],
      level: "warn",
      code: "exchange_collector",
    },
    {
      name: "a protocol contract: warn",
      matches: [listed({ category: "protocol", label: "Permit2" })],
      level: "warn",
      code: "listed_protocol",
    },
    {
      name: "sweeps to a listed collector on this chain: an exchange deposit address, shown",
      matches: [
        listed({
          role: "sweeps-to",
          address: collector,
          category: "exchange-collector",
          label: "Exchange X",
        }),
      ],
      level: "ok",
      code: "exchange_deposit",
    },
  ])("$name", ({ matches, level, code }) => {
    const verdict = decideVerdict({ address, checksum, target: active, listMatches: matches });
    expect(verdict.level).toBe(level);
    expect(verdict.reasons[0]?.code).toBe(code);
    expect(verdict.reasons[0]?.message).toContain("(list: demo list, 2026-11-24)");
  });

  it("deep: an exchange deposit address swept on base, checked for ethereum, is danger", () => {
    const sweep = listed({
      role: "sweeps-to",
      address: collector,
      category: "exchange-collector",
      label: "Exchange X",
    });
    const verdict = decideDeepVerdict({
      address,
      checksum,
      target: readableFacts("ethereum"),
      others: [active],
      listMatches: [sweep],
    });
    expect(verdict.level).toBe("danger");
    expect(verdict.reasons[0]).toMatchObject({
      code: "exchange_deposit_wrong_network",
      chain: "base",
    });
    expect(verdict.headline).toBe("Exchange deposit address (Exchange X) on Base, not Ethereum");
  });
});
