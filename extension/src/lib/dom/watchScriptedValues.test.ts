import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { type ScriptedValue, watchScriptedValues } from "./watchScriptedValues";

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

// A context that records listeners and runs timers when told to, like WXT's ctx would.
function fakeContext() {
  const listeners = new Map<string, () => void>();
  const timers: (() => void)[] = [];
  return {
    ctx: {
      addEventListener: (_target: unknown, type: string, handler: () => void) =>
        listeners.set(type, handler),
      setTimeout: (handler: () => void) => timers.push(handler),
    } as unknown as Parameters<typeof watchScriptedValues>[1],
    fire: (type: string) => listeners.get(type)?.(),
    runTimers: () => {
      for (const timer of timers.splice(0)) timer();
    },
    listeners,
  };
}

describe("watchScriptedValues", () => {
  it("reports a field a script filled, once, after an interaction", () => {
    const { document } = parseHTML(
      '<html><body><input id="book"><input id="shown" readonly><button id="pick"></button></body></html>',
    );
    const { ctx, fire, runTimers, listeners } = fakeContext();
    const seen: ScriptedValue[] = [];
    watchScriptedValues(
      document as unknown as Document,
      ctx,
      (value) => seen.push(value),
      () => true,
    );
    expect([...listeners.keys()]).toEqual(["load", "click", "keyup", "change", "focusin"]);

    const book = document.getElementById("book") as unknown as HTMLInputElement;
    const shown = document.getElementById("shown") as unknown as HTMLInputElement;
    book.value = address;
    shown.value = address;
    fire("click");
    runTimers();
    expect(seen.map((value) => value.field)).toEqual([book]);
    expect(seen[0]?.candidate).toEqual({ kind: "address", value: address });

    // The same value read again is not news; a new one is.
    fire("click");
    runTimers();
    expect(seen).toHaveLength(1);
    book.value = address.toLowerCase();
    fire("keyup");
    runTimers();
    expect(seen).toHaveLength(2);
  });

  it("leaves alone the addresses a page was built with, and reports a later change to them", () => {
    const { document } = parseHTML(
      `<html><body><input id="fee" value="0x20c0000000000000000000000000000000000000"><input id="to"></body></html>`,
    );
    const { ctx, fire, runTimers } = fakeContext();
    const seen: ScriptedValue[] = [];
    watchScriptedValues(
      document as unknown as Document,
      ctx,
      (value) => seen.push(value),
      () => true,
    );
    const fee = document.getElementById("fee") as unknown as HTMLInputElement;
    // The page's script fills a default in as it loads, before the load event.
    const spender = document.createElement("input");
    spender.value = address;
    document.body.append(spender);
    fire("load");
    // The person's first click anywhere: nothing they did put an address in a field.
    fire("click");
    runTimers();
    expect(seen).toEqual([]);
    // Their pick from the page's address book afterwards is news.
    fee.value = address;
    fire("click");
    runTimers();
    expect(seen.map((value) => value.field)).toEqual([fee]);
    // A preset is what will be sent (a payment link's recipient): shown once they step into it.
    focus(document, spender);
    fire("focusin");
    runTimers();
    expect(seen.map((value) => value.field)).toEqual([fee, spender]);
    fire("click");
    runTimers();
    expect(seen).toHaveLength(2);
  });

  it("reports one field however many a script filled at once: the last that changed", () => {
    const { document } = parseHTML("<html><body></body></html>");
    const { ctx, fire, runTimers } = fakeContext();
    const seen: ScriptedValue[] = [];
    watchScriptedValues(
      document as unknown as Document,
      ctx,
      (value) => seen.push(value),
      () => true,
    );
    const fields = Array.from({ length: 300 }, (_, i) => {
      const input = document.createElement("input");
      input.value = `0x${(i + 1).toString(16).padStart(40, "0")}`;
      document.body.append(input);
      return input;
    });
    fire("click");
    runTimers();
    expect(seen.map((value) => value.field)).toEqual([fields.at(-1)]);
    // Nothing changed since: nothing to report.
    fire("click");
    runTimers();
    expect(seen).toHaveLength(1);
  });

  it("reports no field the person cannot see, and a hidden one once it is shown", () => {
    const { document } = parseHTML(
      '<html><body><input id="to"><input id="mirror"><button id="next"></button></body></html>',
    );
    const { ctx, fire, runTimers } = fakeContext();
    const seen: ScriptedValue[] = [];
    const hidden = new Set<unknown>();
    watchScriptedValues(
      document as unknown as Document,
      ctx,
      (value) => seen.push(value),
      (field) => !hidden.has(field),
    );
    const to = document.getElementById("to") as unknown as HTMLInputElement;
    const mirror = document.getElementById("mirror") as unknown as HTMLInputElement;
    hidden.add(mirror);
    to.value = address;
    fire("click");
    runTimers();
    expect(seen.map((value) => value.field)).toEqual([to]);
    // The page fills its hidden field after every click: the badge stays with "to".
    for (const other of [address.toLowerCase(), address]) {
      mirror.value = other;
      fire("click");
      runTimers();
    }
    expect(seen.map((value) => value.field)).toEqual([to]);
    // A form's next step shows the field: what it holds is news now.
    hidden.delete(mirror);
    fire("click");
    runTimers();
    expect(seen.map((value) => value.field)).toEqual([to, mirror]);
  });
});

/** Makes `element` the document's active element, as a person's focus would. */
function focus(document: Document, element: Element) {
  Object.defineProperty(document, "activeElement", { value: element, configurable: true });
}
