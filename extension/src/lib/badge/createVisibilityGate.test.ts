import { describe, expect, it } from "vitest";
import { settleMs } from "./clickGate";
import { createVisibilityGate } from "./createVisibilityGate";

// A stand-in for IntersectionObserver v2: the test delivers the browser's reports.
function fakeObserverWindow() {
  const observers: Array<{ report: (isVisible: unknown) => void; init: unknown }> = [];
  class FakeObserver {
    constructor(callback: (entries: IntersectionObserverEntry[]) => void, init: unknown) {
      observers.push({
        init,
        report: (isVisible) => callback([{ isVisible } as unknown as IntersectionObserverEntry]),
      });
    }
    observe() {}
    disconnect() {}
  }
  return {
    win: { IntersectionObserver: FakeObserver as unknown as typeof IntersectionObserver },
    observers,
  };
}

const box = (x: number, drawnWidth = 100, currentCSSZoom = 1) =>
  ({
    getBoundingClientRect: () => ({ x, y: 10, width: drawnWidth, height: 20 }),
    offsetWidth: 100,
    currentCSSZoom,
  }) as unknown as HTMLElement;

describe("createVisibilityGate", () => {
  it("allows a click only once the badge was seen uncovered and unmoved for the settle time", () => {
    let time = 0;
    let changes = 0;
    const { win, observers } = fakeObserverWindow();
    const gate = createVisibilityGate({ win, now: () => time, onChange: () => changes++ });
    gate.watch(box(0));
    expect(observers[0]?.init).toMatchObject({ trackVisibility: true });
    gate.measure(box(0));
    // Not reported yet: not seen.
    time = 2 * settleMs;
    expect(gate.decision()).toMatchObject({ allowed: false, reason: "hidden" });
    observers[0]?.report(true);
    expect(changes).toBe(1);
    expect(gate.decision()).toMatchObject({ allowed: false });
    time += settleMs;
    expect(gate.decision()).toEqual({ allowed: true });
    // Covered: refused at once, until seen again for the settle time.
    observers[0]?.report(false);
    expect(gate.decision()).toMatchObject({ allowed: false, reason: "hidden", readyAt: null });
  });

  it("restarts the wait when the badge moves or its content changes, not when it stays put", () => {
    let time = 0;
    const { win, observers } = fakeObserverWindow();
    const gate = createVisibilityGate({ win, now: () => time, onChange: () => {} });
    gate.watch(box(0));
    observers[0]?.report(true);
    expect(gate.measure(box(0))).toBe(true);
    time = settleMs;
    expect(gate.measure(box(0))).toBe(false);
    expect(gate.decision()).toEqual({ allowed: true });
    expect(gate.measure(box(40))).toBe(true);
    expect(gate.decision()).toMatchObject({ allowed: false, reason: "moved" });
    time += settleMs;
    expect(gate.decision()).toEqual({ allowed: true });
    gate.placed();
    expect(gate.decision()).toMatchObject({ allowed: false, reason: "moved" });
  });

  it("falls back to the appearance delay where the browser has no IntersectionObserver v2", () => {
    let time = 0;
    const { win, observers } = fakeObserverWindow();
    const gate = createVisibilityGate({ win, now: () => time, onChange: () => {} });
    gate.watch(box(0));
    observers[0]?.report(undefined);
    gate.measure(box(0));
    expect(gate.decision()).toMatchObject({ allowed: false, reason: "moved" });
    time = settleMs;
    expect(gate.decision()).toEqual({ allowed: true });
    const none = createVisibilityGate({
      win: {} as never,
      now: () => time,
      onChange: () => {},
    });
    none.watch(box(0));
    time += settleMs;
    expect(none.decision()).toEqual({ allowed: true });
  });

  it("takes no click on a badge a page shrank (CSS zoom or a scale on an ancestor)", () => {
    let time = 0;
    const { win, observers } = fakeObserverWindow();
    const gate = createVisibilityGate({ win, now: () => time, onChange: () => {} });
    gate.watch(box(0));
    observers[0]?.report(undefined);
    gate.measure(box(0));
    time = settleMs;
    expect(gate.decision()).toEqual({ allowed: true });
    gate.measure(box(0, 100, 0.25));
    time += 10 * settleMs;
    expect(gate.decision()).toEqual({ allowed: false, reason: "hidden", readyAt: null });
    gate.measure(box(0, 25));
    expect(gate.decision()).toMatchObject({ allowed: false, reason: "hidden" });
    gate.measure(box(0));
    time += settleMs;
    expect(gate.decision()).toEqual({ allowed: true });
  });
});
