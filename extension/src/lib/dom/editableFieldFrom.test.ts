import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { editableFieldFrom } from "./editableFieldFrom";

const { document } = parseHTML(`<html><body>
  <input id="text"><input id="pw" type="password"><input id="url" type="url">
  <textarea id="area"></textarea>
  <div id="editor" contenteditable="true"><p id="para"><b id="bold">x</b></p></div>
  <div id="plain"><span id="span">x</span></div>
</body></html>`);

const byId = (id: string) => document.getElementById(id) as unknown as HTMLElement;
// A composed path as the browser builds it: target first, then its ancestors.
function pathOf(element: HTMLElement): EventTarget[] {
  const path: EventTarget[] = [];
  for (let node: HTMLElement | null = element; node; node = node.parentElement) path.push(node);
  return path;
}

describe("editableFieldFrom", () => {
  it("returns text inputs and textareas", () => {
    expect(editableFieldFrom(pathOf(byId("text")))).toBe(byId("text"));
    expect(editableFieldFrom(pathOf(byId("url")))).toBe(byId("url"));
    expect(editableFieldFrom(pathOf(byId("area")))).toBe(byId("area"));
  });

  it("never returns a password field", () => {
    expect(editableFieldFrom(pathOf(byId("pw")))).toBeNull();
  });

  it("returns the editing host for a node deep inside a contenteditable", () => {
    expect(editableFieldFrom(pathOf(byId("bold")))).toBe(byId("editor"));
  });

  it("returns null outside editable fields", () => {
    expect(editableFieldFrom(pathOf(byId("span")))).toBeNull();
    expect(editableFieldFrom([])).toBeNull();
  });

  it("takes the first element of the path (inside a shadow root, target is retargeted)", () => {
    // The window and document at the end of a real path are not elements and are skipped.
    expect(editableFieldFrom([byId("area"), document as unknown as EventTarget])).toBe(
      byId("area"),
    );
  });
});
