import type { Address } from "viem";
import { describe, expect, it } from "vitest";
import { mergeSentRecipients } from "./mergeSentRecipients";
import type { SentRecipient } from "./schemas";

const at = "2025-06-01T12:00:00.000Z";
const addressOf = (n: number) => `0x${n.toString(16).padStart(40, "0")}` as Address;
const sends = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ address: addressOf(from + i), at }));
const limits = { perSite: 5, total: 12 };

describe("mergeSentRecipients", () => {
  it("adds new addresses first, once each", () => {
    const list: SentRecipient[] = [{ address: addressOf(1), at, site: "https://a.example" }];
    const merged = mergeSentRecipients(list, sends(1, 2), "https://a.example", limits);
    expect(merged.map((e) => e.address)).toEqual([addressOf(2), addressOf(1)]);
  });

  it("forged sends cannot evict another site's real entries: a flooding site pushes out only its own", () => {
    const real: SentRecipient[] = sends(100, 3).map((e) => ({
      ...e,
      site: "https://wallet.example",
    }));
    let list = real;
    for (let round = 0; round < 40; round++) {
      list = mergeSentRecipients(list, sends(1_000 + round * 5, 5), "https://evil.example", limits);
    }
    for (const entry of real) expect(list).toContainEqual(entry);
    expect(list.filter((e) => e.site === "https://evil.example")).toHaveLength(5);
  });

  it("a full list takes no more, it never evicts (entries kept from before stay)", () => {
    let list: SentRecipient[] = [];
    for (let site = 0; site < 4; site++) {
      list = mergeSentRecipients(list, sends(site * 10, 5), `https://s${site}.example`, limits);
    }
    expect(list).toHaveLength(12);
    const before = [...list];
    list = mergeSentRecipients(list, sends(900, 3), "https://late.example", limits);
    expect(list).toEqual(before);
  });
});
