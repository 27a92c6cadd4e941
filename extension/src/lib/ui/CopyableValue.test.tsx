import { parseHTML } from "linkedom";
import { h, render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it, vi } from "vitest";
import { CopyableValue } from "./CopyableValue";

// Rendered with Preact through preact/compat, as the card is.
vi.mock("react", () => import("preact/compat"));
vi.mock("react/jsx-runtime", () => import("preact/jsx-runtime"));
vi.mock("react/jsx-dev-runtime", () => import("preact/jsx-runtime"));

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

afterEach(() => vi.unstubAllGlobals());

describe("CopyableValue", () => {
  it("writes the whole value, wrapping, and copies it on click", async () => {
    const { document, window } = parseHTML("<html><body><div id=root></div></body></html>");
    vi.stubGlobal("document", document);
    vi.stubGlobal("window", window);
    const writeText = vi.fn(async () => undefined);
    vi.stubGlobal("navigator", { clipboard: { writeText } });
    const root = document.getElementById("root") as unknown as Element;
    render(h(CopyableValue, { value: address, label: "address" }), root);
    expect(root.querySelector(".mono")?.textContent).toBe(address);
    const button = root.querySelector("[data-action=copy-value]") as HTMLButtonElement;
    expect(button.textContent).toBe("Copy address");
    await act(async () => {
      button.click();
    });
    expect(writeText).toHaveBeenCalledWith(address);
    expect(button.textContent).toBe("Copied");
  });
});
