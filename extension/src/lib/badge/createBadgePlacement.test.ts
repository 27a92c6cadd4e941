import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { createBadgePlacement, type PlacementTarget } from "./createBadgePlacement";

const viewport = { innerWidth: 1000, innerHeight: 600 };

// The page: a host element, a field whose rect the test moves, and the ctx's frames and listeners.
function setup(expanded = false) {
  const { document } = parseHTML("<html><body></body></html>");
  const host = document.createElement("presend-badge") as unknown as HTMLElement;
  let rect = { top: 100, bottom: 120, left: 100, right: 300, width: 200, height: 20 };
  const field = {
    getBoundingClientRect: () => rect,
    ownerDocument: document,
  } as unknown as Element;
  const frames: Array<() => void> = [];
  const listeners = new Map<string, () => void>();
  const ctx = {
    addEventListener: (_target: unknown, type: string, listener: () => void) => {
      listeners.set(type, listener);
    },
    requestAnimationFrame: (callback: () => void) => frames.push(callback),
  };
  let target: PlacementTarget | null = { host, field, expanded };
  let placed = 0;
  const placement = createBadgePlacement({
    win: viewport,
    ctx: ctx as never,
    target: () => target,
    onPlaced: () => placed++,
  });
  return {
    host,
    placement,
    frames,
    listeners,
    placed: () => placed,
    moveField: (top: number) => {
      rect = { ...rect, top, bottom: top + 20 };
    },
    setTarget: (next: PlacementTarget | null) => {
      target = next;
    },
  };
}

describe("createBadgePlacement", () => {
  it("puts the chip beside the field's right edge", () => {
    const { host, placement, placed } = setup();
    placement.place();
    expect(host.style.getPropertyValue("left")).toBe("306px");
    expect(host.style.getPropertyValue("top")).toBe("100px");
    expect(placed()).toBe(1);
  });

  it("hides a collapsed chip whose field scrolled out of view, and shows it when it is back", () => {
    const { host, placement, moveField } = setup();
    placement.reveal(host);
    moveField(-200);
    placement.place();
    expect(host.style.getPropertyValue("display")).toBe("none");
    // Out of view, a render does not bring it back.
    expect(placement.reveal(host)).toBe(false);
    expect(host.style.getPropertyValue("display")).toBe("none");
    moveField(100);
    placement.place();
    expect(host.style.getPropertyValue("display")).toBe("block");
  });

  it("keeps an open card on screen when its field scrolled away", () => {
    const { host, placement, moveField } = setup(true);
    placement.reveal(host);
    moveField(900);
    placement.place();
    expect(host.style.getPropertyValue("display")).toBe("block");
    // Inside the viewport, though the field is below it.
    expect(Number.parseFloat(host.style.getPropertyValue("top"))).toBeLessThan(600);
  });

  it("reveals a hidden host once, and tells it was hidden", () => {
    const { host, placement } = setup();
    expect(placement.reveal(host)).toBe(true);
    expect(host.style.getPropertyValue("display")).toBe("block");
    expect(placement.reveal(host)).toBe(false);
  });

  it("reveals the host again after reset, though its field was out of view", () => {
    const { host, placement, moveField } = setup();
    placement.reveal(host);
    moveField(-200);
    placement.place();
    placement.reset();
    host.style.setProperty("display", "none");
    expect(placement.reveal(host)).toBe(true);
  });

  it("places once per animation frame after scrolls and resizes, and not without a badge", () => {
    const { host, placement, frames, listeners, placed, moveField, setTarget } = setup();
    placement.reveal(host);
    listeners.get("scroll")?.();
    listeners.get("scroll")?.();
    listeners.get("resize")?.();
    expect(frames).toHaveLength(1);
    moveField(300);
    frames[0]?.();
    expect(placed()).toBe(1);
    expect(host.style.getPropertyValue("top")).toBe("300px");
    listeners.get("scroll")?.();
    expect(frames).toHaveLength(2);
    frames[1]?.();
    setTarget(null);
    listeners.get("scroll")?.();
    expect(frames).toHaveLength(2);
  });
});
