import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { keepHostAboveField, topLayerOf } from "./keepHostAboveField";

// linkedom knows no top layer: the elements that are in it (an open modal dialog, an open
// popover) say so through `matches`, and the host records being raised as Chromium would.
function page() {
  const { document } = parseHTML(
    '<html><body><dialog id="dialog"><div><input id="in-dialog"></div></dialog><x-sheet id="sheet"><input id="in-sheet"></x-sheet><input id="plain"></body></html>',
  );
  const topLayer = new Set<Element>();
  for (const id of ["dialog", "sheet"]) {
    const element = document.getElementById(id) as Element;
    const matches = element.matches.bind(element);
    element.matches = (selector: string) => (selector === ":modal" ? true : matches(selector));
    topLayer.add(element);
  }
  const host = document.createElement("presend-badge") as unknown as HTMLElement;
  let raised = 0;
  host.matches = (selector: string) => selector === ":popover-open" && raised > 0;
  host.showPopover = () => {
    raised++;
  };
  document.documentElement.append(host);
  const field = (id: string) => document.getElementById(id) as Element;
  return { document, host, field, raised: () => raised };
}

describe("topLayerOf", () => {
  it("finds the open modal dialog a field is in, and nothing for a field outside", () => {
    const { field, document } = page();
    expect(topLayerOf(field("in-dialog"))).toBe(document.getElementById("dialog"));
    expect(topLayerOf(field("plain"))).toBeNull();
  });

  it("treats a pseudo-class the browser does not know as not in the top layer", () => {
    const { field } = page();
    const input = field("plain");
    const parent = input.parentNode as Element;
    parent.matches = () => {
      throw new SyntaxError("unknown pseudo-class");
    };
    expect(topLayerOf(input)).toBeNull();
  });
});

describe("keepHostAboveField", () => {
  it("moves the host into a modal dialog holding the field and raises it above, once", () => {
    const { host, field, raised, document } = page();
    expect(keepHostAboveField(host, field("in-dialog"))).toBe(true);
    expect(host.parentNode).toBe(document.getElementById("dialog"));
    expect(host.getAttribute("popover")).toBe("manual");
    expect(raised()).toBe(1);
    // Placed again (every re-read): nothing moves, nothing is raised twice.
    expect(keepHostAboveField(host, field("in-dialog"))).toBe(false);
    expect(raised()).toBe(1);
  });

  it("raises the host from <html> over a custom element that may not render a light-DOM child", () => {
    const { host, field, raised, document } = page();
    expect(keepHostAboveField(host, field("in-sheet"))).toBe(true);
    expect(host.parentNode).toBe(document.documentElement);
    expect(raised()).toBe(1);
  });

  it("puts back on <html> a host the page moved, or whose field left the top layer", () => {
    const { host, field, document } = page();
    keepHostAboveField(host, field("in-dialog"));
    expect(keepHostAboveField(host, field("plain"))).toBe(true);
    expect(host.parentNode).toBe(document.documentElement);
    expect(host.hasAttribute("popover")).toBe(false);

    document.body.append(host);
    expect(keepHostAboveField(host, field("plain"))).toBe(true);
    expect(host.parentNode).toBe(document.documentElement);
    expect(keepHostAboveField(host, field("plain"))).toBe(false);
  });
});
