import { parseHTML } from "linkedom";
import { h, render } from "preact";
import { act } from "preact/test-utils";
import { afterEach, describe, expect, it, vi } from "vitest";

// The card renders with Preact through preact/compat (the build's alias); so does this test.
vi.mock("react", () => import("preact/compat"));
vi.mock("react/jsx-runtime", () => import("preact/jsx-runtime"));
vi.mock("react/jsx-dev-runtime", () => import("preact/jsx-runtime"));

// Local storage as the extension sees it: values by key, and the change listeners it notifies.
const stored: Record<string, unknown> = {};
const listeners = new Set<(changes: Record<string, unknown>, area: string) => void>();
vi.mock("wxt/browser", () => ({
  browser: {
    storage: {
      local: { get: async (key: string) => ({ [key]: stored[key] }) },
      onChanged: {
        addListener: (listener: (changes: Record<string, unknown>, area: string) => void) =>
          listeners.add(listener),
        removeListener: (listener: (changes: Record<string, unknown>, area: string) => void) =>
          listeners.delete(listener),
      },
    },
  },
}));

const { useLocalStored } = await import("./useLocalStored");

const asCount = (value: unknown) => (typeof value === "number" ? value : -1);

function Shown() {
  return h("span", null, String(useLocalStored("count", asCount, 0)));
}

async function settle() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 0));
  });
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("useLocalStored", () => {
  it("shows the initial value, then what is stored, then each change, and stops listening when gone", async () => {
    const { document, window } = parseHTML("<html><body><div id=root></div></body></html>");
    vi.stubGlobal("document", document);
    vi.stubGlobal("window", window);
    const root = document.getElementById("root") as unknown as Element;
    stored.count = 3;
    act(() => {
      render(h(Shown, null), root);
    });
    expect(root.textContent).toBe("0");
    await settle();
    expect(root.textContent).toBe("3");

    stored.count = 4;
    for (const listener of listeners) listener({ other: {} }, "local");
    for (const listener of listeners) listener({ count: {} }, "session");
    await settle();
    expect(root.textContent).toBe("3");
    for (const listener of listeners) listener({ count: {} }, "local");
    await settle();
    expect(root.textContent).toBe("4");

    // Anything else stored is what `read` makes of it.
    stored.count = "four";
    for (const listener of listeners) listener({ count: {} }, "local");
    await settle();
    expect(root.textContent).toBe("-1");

    act(() => {
      render(null, root);
    });
    expect(listeners.size).toBe(0);
  });
});
