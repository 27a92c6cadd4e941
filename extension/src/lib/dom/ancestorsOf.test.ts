import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { ancestorsOf } from "./ancestorsOf";

describe("ancestorsOf", () => {
  it("lists the nearest element ancestors, innermost first, up to the limit", () => {
    const { document } = parseHTML(
      `<html><body><main id="main"><form id="form"><fieldset id="set"><div id="row"><input id="field"></div></fieldset></form></main></body></html>`,
    );
    const field = document.getElementById("field") as unknown as Element;
    expect(ancestorsOf(field).map((element) => element.id)).toEqual(["row", "set", "form", "main"]);
    expect(ancestorsOf(field, 2).map((element) => element.id)).toEqual(["row", "set"]);
  });

  it("skips the document itself and stops at the top", () => {
    const { document } = parseHTML(`<html><body><input id="field"></body></html>`);
    const field = document.getElementById("field") as unknown as Element;
    expect(ancestorsOf(field).map((element) => element.localName)).toEqual(["body", "html"]);
  });

  it("climbs out of a shadow root to its host", () => {
    const { document } = parseHTML(
      `<html><body><div id="row"><x-field id="host"></x-field></div></body></html>`,
    );
    const host = document.getElementById("host") as unknown as Element;
    const shadow = host.attachShadow({ mode: "open" });
    const field = document.createElement("input");
    shadow.append(field);
    expect(ancestorsOf(field as unknown as Element, 2).map((element) => element.id)).toEqual([
      "host",
      "row",
    ]);
  });
});
