import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { findReplacementField } from "./findReplacementField";

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

function page(html: string) {
  const { document } = parseHTML(
    `<html><body><form id="form"><div id="row">${html}</div></form></body></html>`,
  );
  const byId = (id: string) => document.getElementById(id) as unknown as HTMLElement;
  return { document, byId };
}

describe("findReplacementField", () => {
  it("finds the input a re-render put in place of the old one", () => {
    const { document, byId } = page(`<input id="old" value="${address}">`);
    const old = byId("old");
    const ancestors = [byId("row"), byId("form")];
    const fresh = document.createElement("input");
    fresh.setAttribute("value", address.toLowerCase());
    (fresh as unknown as HTMLInputElement).value = address.toLowerCase();
    old.replaceWith(fresh);
    expect(findReplacementField(ancestors, address)).toBe(fresh);
  });

  it("finds the chip showing the address when the field became text", () => {
    const { byId } = page(`<input id="old" value="${address}">`);
    const ancestors = [byId("row"), byId("form")];
    byId("row").innerHTML = `<span class="chip" id="chip">${address}</span>`;
    expect(findReplacementField(ancestors, address)).toBe(byId("chip"));
  });

  it("finds nothing when the address is gone", () => {
    const { byId } = page(`<input id="old" value="${address}">`);
    const ancestors = [byId("row"), byId("form")];
    byId("row").innerHTML = `<input id="empty">`;
    expect(findReplacementField(ancestors, address)).toBeNull();
  });
});
