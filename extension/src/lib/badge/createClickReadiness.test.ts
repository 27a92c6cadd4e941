import { describe, expect, it } from "vitest";
import type { ClickDecision } from "./clickGate";
import { createClickReadiness } from "./createClickReadiness";

// A clock and timers the test advances by hand.
function setup() {
  let time = 0;
  let decision: ClickDecision = { allowed: false, reason: "moved", readyAt: 500 };
  let active = true;
  let renders = 0;
  const timers = new Map<number, { at: number; callback: () => void }>();
  let nextId = 1;
  const readiness = createClickReadiness({
    win: { clearTimeout: (id?: number) => void timers.delete(id ?? 0) },
    ctx: {
      setTimeout: ((callback: () => void, ms: number) => {
        timers.set(nextId, { at: time + ms, callback });
        return nextId++;
      }) as never,
    },
    now: () => time,
    decide: () => decision,
    active: () => active,
    onChange: () => {
      renders++;
      readiness.read();
    },
  });
  const advance = (to: number) => {
    time = to;
    for (const [id, timer] of [...timers]) {
      if (timer.at <= time) {
        timers.delete(id);
        timer.callback();
      }
    }
  };
  return {
    readiness,
    timers,
    advance,
    renders: () => renders,
    decide: (next: ClickDecision) => {
      decision = next;
    },
    deactivate: () => {
      active = false;
    },
  };
}

describe("createClickReadiness", () => {
  it("renders again when the gate's decision differs from what the badge shows", () => {
    const { readiness, renders, decide } = setup();
    expect(readiness.read()).toBe(false);
    readiness.refresh();
    expect(renders()).toBe(0);
    decide({ allowed: true });
    readiness.refresh();
    expect(renders()).toBe(1);
    // Shown now: no further render for the same decision.
    readiness.refresh();
    expect(renders()).toBe(1);
  });

  it("checks again just after the moment the gate says the click would count", () => {
    const { readiness, timers, advance, renders, decide } = setup();
    readiness.read();
    readiness.refresh();
    expect(timers.size).toBe(1);
    expect([...timers.values()][0]?.at).toBe(501);
    decide({ allowed: true });
    advance(400);
    expect(renders()).toBe(0);
    advance(501);
    expect(renders()).toBe(1);
    expect(timers.size).toBe(0);
  });

  it("sets no timer when the gate cannot say when (not seen yet)", () => {
    const { readiness, timers, decide } = setup();
    decide({ allowed: false, reason: "hidden", readyAt: null });
    readiness.refresh();
    expect(timers.size).toBe(0);
  });

  it("keeps one timer however often it is refreshed, and none once stopped or inactive", () => {
    const { readiness, timers, deactivate } = setup();
    readiness.refresh();
    readiness.refresh();
    expect(timers.size).toBe(1);
    readiness.stop();
    expect(timers.size).toBe(0);
    deactivate();
    readiness.refresh();
    expect(timers.size).toBe(0);
  });
});
