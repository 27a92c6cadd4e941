import { describe, expect, it, vi } from "vitest";
import type { EditableField } from "./editableFieldFrom";
import { type AddressEntry, watchAddressEntry } from "./watchAddressEntry";

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

// A document that only records listeners: enough to drive the watcher without a browser.
function fakeDocument() {
  const listeners = new Map<string, (event: Event) => void>();
  const doc = {
    addEventListener: (type: string, listener: (event: Event) => void, capture: boolean) => {
      expect(capture).toBe(true);
      listeners.set(type, listener);
    },
    removeEventListener: (type: string) => listeners.delete(type),
  } as unknown as Document;
  const fire = (type: string, event: Partial<ClipboardEvent>) =>
    listeners.get(type)?.(event as Event);
  return { doc, listeners, fire };
}

// A form row holding the field: the ancestors an entry carries.
const row = {
  nodeType: 1,
  localName: "div",
  parentNode: null,
  getRootNode: () => ({ host: null }),
};

function fakeInput(value: string): EditableField {
  return {
    nodeType: 1,
    localName: "input",
    value,
    parentNode: row,
    getAttribute: () => null,
  } as unknown as EditableField;
}

describe("watchAddressEntry", () => {
  it("reports a pasted address from the clipboard before the page inserts it", () => {
    const { doc, fire } = fakeDocument();
    const entries: AddressEntry[] = [];
    watchAddressEntry(doc, {
      onEntry: (e) => entries.push(e),
      onClear: vi.fn(),
      now: () => 7,
      inSight: () => true,
    });
    const field = fakeInput("");
    fire("paste", {
      composedPath: () => [field],
      clipboardData: { getData: () => address } as unknown as DataTransfer,
    });
    expect(entries).toEqual([
      {
        field,
        // Taken as the event arrives: the page may replace the field before the badge shows.
        ancestors: [row],
        candidate: { kind: "address", value: address },
        trigger: "paste",
        at: 7,
      },
    ]);
  });

  it("reports typing that completes an address and clears when it is edited away", () => {
    const { doc, fire } = fakeDocument();
    const onEntry = vi.fn();
    const onClear = vi.fn();
    watchAddressEntry(doc, { onEntry, onClear, now: () => 1, inSight: () => true });
    const field = fakeInput(address);
    fire("input", { composedPath: () => [field] });
    expect(onEntry).toHaveBeenCalledWith(expect.objectContaining({ field, trigger: "input" }));
    (field as HTMLInputElement).value = "0x12";
    fire("input", { composedPath: () => [field] });
    expect(onClear).toHaveBeenCalledWith(field);
  });

  it("ignores events outside editable fields and stops listening when unsubscribed", () => {
    const { doc, fire, listeners } = fakeDocument();
    const onEntry = vi.fn();
    const stop = watchAddressEntry(doc, {
      onEntry,
      onClear: vi.fn(),
      now: () => 1,
      inSight: () => true,
    });
    fire("input", { composedPath: () => [] });
    expect(onEntry).not.toHaveBeenCalled();
    stop();
    expect(listeners.size).toBe(0);
  });

  it("takes a page's own paste or input event in a field out of sight as no entry, the person's as one", () => {
    const { doc, fire } = fakeDocument();
    const onEntry = vi.fn();
    const onClear = vi.fn();
    const hidden = fakeInput(address);
    watchAddressEntry(doc, { onEntry, onClear, now: () => 1, inSight: (f) => f !== hidden });
    const clipboardData = { getData: () => address } as unknown as DataTransfer;
    // A script filling a hidden field, again and again: the badge stays where the person is.
    fire("input", { composedPath: () => [hidden], isTrusted: false });
    fire("paste", { composedPath: () => [hidden], clipboardData, isTrusted: false });
    expect(onEntry).not.toHaveBeenCalled();
    expect(onClear).not.toHaveBeenCalled();
    // The same events in a field in sight (a framework's own input events) still count.
    const shown = fakeInput(address);
    fire("input", { composedPath: () => [shown], isTrusted: false });
    expect(onEntry).toHaveBeenCalledTimes(1);
    // What the person does counts wherever it lands (a field hiding as the address arrives).
    fire("input", { composedPath: () => [hidden], isTrusted: true });
    expect(onEntry).toHaveBeenCalledTimes(2);
    expect(onEntry.mock.calls[1]?.[0].field).toBe(hidden);
  });
});
