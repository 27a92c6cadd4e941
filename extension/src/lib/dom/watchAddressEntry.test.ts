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
    watchAddressEntry(doc, { onEntry: (e) => entries.push(e), onClear: vi.fn(), now: () => 7 });
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
    watchAddressEntry(doc, { onEntry, onClear, now: () => 1 });
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
    const stop = watchAddressEntry(doc, { onEntry, onClear: vi.fn(), now: () => 1 });
    fire("input", { composedPath: () => [] });
    expect(onEntry).not.toHaveBeenCalled();
    stop();
    expect(listeners.size).toBe(0);
  });
});
