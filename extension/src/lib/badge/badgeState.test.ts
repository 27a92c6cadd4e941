import { describe, expect, it } from "vitest";
import { assessLocally } from "../address/assessLocally";
import type { EditableField } from "../dom/editableFieldFrom";
import { exampleHistoryEntry } from "../storage/exampleHistoryEntry";
import {
  beginCheck,
  beginRecovery,
  checkProgress,
  enterAddress,
  finishCheck,
  finishRecovery,
  isChecking,
  walletChainKnown,
} from "./badgeState";

const vitalik = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const other = "0x5982758b12b31D28DEBeC877D26d26C9A0cB7BfA";
const field = {} as EditableField;
const otherField = {} as EditableField;
const entered = (value: string, into: EditableField = field) => {
  const candidate = { kind: "address", value } as const;
  return { field: into, ancestors: [], candidate, assessment: assessLocally(candidate, []) };
};
const shown = (walletChain: "base" | "arbitrum" | null = null) => {
  const state = enterAddress(null, entered(vitalik), walletChain);
  if (!state) throw new Error("no state");
  return state;
};
const report = exampleHistoryEntry({ address: vitalik, checkedAt: new Date() });

describe("badgeState", () => {
  it("shows a first address on base, or on the wallet's chain when it is known", () => {
    expect(shown()).toMatchObject({ chain: "base", chainSource: "default", expanded: false });
    expect(shown("arbitrum")).toMatchObject({ chain: "arbitrum", chainSource: "wallet" });
  });

  it("keeps everything for the same address in the same field (a paid result stays)", () => {
    const done = finishCheck(beginCheck(shown(), "s1"), "s1", { type: "report", entry: report });
    expect(done && enterAddress(done, entered(vitalik), null)).toBe(null);
  });

  it("starts over for a new address, keeping the chain the person picked and the open card", () => {
    const picked = { ...shown(), chain: "polygon" as const, chainSource: "user" as const };
    const checked = finishCheck(beginCheck(picked, "s1"), "s1", { type: "report", entry: report });
    const next = checked && enterAddress(checked, entered(other), "arbitrum");
    expect(next).toMatchObject({
      chain: "polygon",
      chainSource: "user",
      expanded: true,
      session: null,
      outcome: null,
      progress: null,
    });
    // Another field starts collapsed.
    expect(enterAddress(picked, entered(other, otherField), null)?.expanded).toBe(false);
  });

  it("runs a check: requesting, progress of its own session only, then the outcome", () => {
    const started = beginCheck(shown(), "s1");
    expect(started).toMatchObject({ expanded: true, progress: { step: "requesting" } });
    expect(isChecking(started)).toBe(true);
    expect(checkProgress(started, "other", { step: "paying" })).toBe(null);
    const paying = checkProgress(started, "s1", { step: "paying" });
    expect(paying?.progress).toEqual({ step: "paying" });
    expect(paying && finishCheck(paying, "other", { type: "rejected", message: "" })).toBe(null);
    const done = paying && finishCheck(paying, "s1", { type: "rejected", message: "declined" });
    expect(done).toMatchObject({ progress: null, outcome: { type: "rejected" } });
    expect(done && isChecking(done)).toBe(false);
  });

  it("preselects the wallet's chain unless the person picked one or a check is running", () => {
    expect(walletChainKnown(shown(), "arbitrum")).toMatchObject({
      chain: "arbitrum",
      chainSource: "wallet",
    });
    expect(walletChainKnown({ ...shown(), chainSource: "user" }, "arbitrum")).toBe(null);
    expect(walletChainKnown(beginCheck(shown(), "s1"), "arbitrum")).toBe(null);
    // A check that has ended holds the chain no more: the card goes where the wallet now is.
    const ended = finishCheck(beginCheck(shown("base"), "s1"), "s1", {
      type: "rejected",
      message: "declined",
    });
    if (!ended) throw new Error("no state");
    expect(walletChainKnown(ended, "arbitrum")).toMatchObject({
      chain: "arbitrum",
      chainSource: "wallet",
    });
    expect(walletChainKnown(shown(), null)).toBe(null);
    // The same chain again changes nothing (a redraw would restart the paid click's wait).
    expect(walletChainKnown(shown("arbitrum"), "arbitrum")).toBe(null);
  });

  it("recovers a lost report: a pending answer keeps the failure shown, a recovered one becomes the verdict", () => {
    const lost = finishCheck(beginCheck(shown(), "s1"), "s1", {
      type: "failed",
      message: "lost",
      charged: "unknown",
      recoveryId: "r1",
    });
    if (!lost) throw new Error("no state");
    const asking = beginRecovery(lost, "f1");
    expect(asking.recovery).toEqual({ session: "f1", result: null });
    expect(finishRecovery(asking, "f0", { type: "pending", message: "" })).toBe(null);
    const pending = finishRecovery(asking, "f1", { type: "pending", message: "not yet" });
    expect(pending).toMatchObject({
      outcome: { type: "failed" },
      recovery: { session: null, result: { type: "pending" } },
    });
    const again = pending && beginRecovery(pending, "f2");
    expect(again?.recovery).toEqual({
      session: "f2",
      result: { type: "pending", message: "not yet" },
    });
    const recovered = again && finishRecovery(again, "f2", { type: "recovered", entry: report });
    expect(recovered).toMatchObject({
      outcome: { type: "report", entry: report },
      recovery: { session: null, result: null },
    });
  });
});
