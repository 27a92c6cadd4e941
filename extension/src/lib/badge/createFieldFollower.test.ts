import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { assessLocally } from "../address/assessLocally";
import { findAddressCandidate } from "../address/findAddressCandidate";
import type { EditableField } from "../dom/editableFieldFrom";
import { createFieldFollower, followMs } from "./createFieldFollower";

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const other = "0x52908400098527886E0F7030069857D2E4169EE7";

function input(document: Document, value: string): EditableField {
  const field = document.createElement("input");
  field.setAttribute("value", value);
  (field as HTMLInputElement).value = value;
  return field as unknown as EditableField;
}

// A form row holding the field, the badge's view of it, and what the follower reported.
function setup(session: string | null = null) {
  const { document } = parseHTML(
    `<html><body><form id="form"><div id="row"></div></form></body></html>`,
  );
  const doc = document as unknown as Document;
  const row = doc.getElementById("row") as HTMLElement;
  const field = input(doc, address);
  row.append(field);
  const candidate = findAddressCandidate(address);
  if (!candidate) throw new Error("no candidate");
  let shown: { field: EditableField; ancestors: Element[] } | null = {
    field,
    ancestors: [row, doc.getElementById("form") as HTMLElement],
  };
  const events: string[] = [];
  const intervals: Array<{ callback: () => void; ms: number }> = [];
  const frames: Array<() => void> = [];
  const follower = createFieldFollower({
    win: {
      clearInterval: (id?: number) => void events.push(`clear ${id}`),
      cancelAnimationFrame: () => undefined,
    },
    ctx: {
      setInterval: ((callback: () => void, ms: number) =>
        intervals.push({ callback, ms })) as never,
      requestAnimationFrame: ((callback: () => void) => frames.push(callback)) as never,
    },
    current: () =>
      shown && { ...shown, assessment: assessLocally(candidate, []), session: session },
    onReplaced: (next, ancestors) => {
      events.push(`replaced ${next.localName}`);
      shown = { field: next, ancestors };
    },
    onGone: () => {
      events.push("gone");
      shown = null;
    },
    onChanged: (_field, next) => events.push(`changed ${next.value}`),
    onUnchanged: () => events.push("unchanged"),
  });
  return { doc, row, field, follower, events, intervals, frames, shown: () => shown };
}

describe("createFieldFollower", () => {
  it("places the badge again while the field holds the same address", () => {
    const { follower, events } = setup();
    follower.follow();
    expect(events).toEqual(["unchanged"]);
  });

  it("reports the address the page wrote into the field", () => {
    const { follower, field, events } = setup();
    (field as HTMLInputElement).value = other;
    follower.follow();
    expect(events).toEqual([`changed ${other}`]);
  });

  it("lets the badge go when the field is removed and no paid check runs", () => {
    const { follower, field, events } = setup();
    field.remove();
    follower.follow();
    expect(events).toEqual(["gone"]);
  });

  it("keeps the badge of a running paid check when the field is removed or emptied", () => {
    const removed = setup("session-1");
    removed.field.remove();
    removed.follower.follow();
    expect(removed.events).toEqual([]);
    const emptied = setup("session-1");
    (emptied.field as HTMLInputElement).value = "";
    emptied.follower.follow();
    expect(emptied.events).toEqual([]);
  });

  it("lets the badge go when the field no longer holds an address", () => {
    const { follower, field, events } = setup();
    (field as HTMLInputElement).value = "";
    follower.follow();
    expect(events).toEqual(["gone"]);
  });

  it("picks up the field a re-render put in place holding the same address", () => {
    const { doc, follower, field, events, shown, row } = setup();
    const fresh = input(doc, address);
    field.replaceWith(fresh);
    follower.follow();
    expect(events).toEqual(["replaced input", "unchanged"]);
    expect(shown()?.field).toBe(fresh);
    expect(shown()?.ancestors[0]).toBe(row);
  });

  it("follows every followMs once started, however often start is called, until stopped", () => {
    const { follower, intervals, events } = setup();
    follower.start();
    follower.start();
    expect(intervals).toHaveLength(1);
    expect(intervals[0]?.ms).toBe(followMs);
    intervals[0]?.callback();
    expect(events).toEqual(["unchanged"]);
    follower.stop();
    follower.start();
    expect(intervals).toHaveLength(2);
    expect(events).toContain("clear 1");
  });

  it("remembers a dismissed value per field until the field is entered anew", () => {
    const { follower, field } = setup();
    follower.dismiss(field, address);
    expect(follower.dismissed(field, address)).toBe(true);
    expect(follower.dismissed(field, other)).toBe(false);
    follower.forget(field);
    expect(follower.dismissed(field, address)).toBe(false);
  });

  it("notices a swapped value in the next frame, not at the next re-read", () => {
    const { follower, field, events, frames } = setup();
    follower.start();
    (field as HTMLInputElement).value = other;
    frames.shift()?.();
    expect(events).toEqual([`changed ${other}`]);
  });
});
