import { parseHTML } from "linkedom";
import { afterEach, describe, expect, it, vi } from "vitest";
import type { BadgeProps } from "./BadgeCard";
import { createBadgeKeyboard } from "./createBadgeKeyboard";
import { createBadgeRenderer } from "./createBadgeRenderer";
import { exampleBadgeProps } from "./exampleBadgeProps";
import type { VerdictUi } from "./verdictUi";

// The content script renders with Preact through preact/compat (the build's alias); so does this test.
vi.mock("react", () => import("preact/compat"));
vi.mock("react-dom", () => import("preact/compat"));
vi.mock("react-dom/client", () => import("preact/compat/client"));
vi.mock("react/jsx-runtime", () => import("preact/jsx-runtime"));
vi.mock("react/jsx-dev-runtime", () => import("preact/jsx-runtime"));

// A page, and a card chunk that arrives when the test resolves it, recording what it renders.
function setup() {
  const { document, window } = parseHTML("<html><head></head><body></body></html>");
  // Preact compares its parent with the global document.
  vi.stubGlobal("document", document);
  vi.stubGlobal("window", window);
  const cards: Array<{ slot: Element; props: BadgeProps | null }> = [];
  const ui: VerdictUi = { renderCard: (slot, shown) => void cards.push({ slot, props: shown }) };
  let arrive: (ui: VerdictUi) => void = () => {};
  let fail: (error: Error) => void = () => {};
  let loads = 0;
  const hosts: HTMLElement[] = [];
  let arrivals = 0;
  const renderer = createBadgeRenderer({
    doc: document as unknown as Document,
    loadVerdictUi: () => {
      loads++;
      return new Promise<VerdictUi>((resolve, reject) => {
        arrive = resolve;
        fail = reject;
      });
    },
    onHost: (host) => hosts.push(host),
    onCardArrived: () => arrivals++,
  });
  return {
    document,
    renderer,
    cards,
    hosts,
    loads: () => loads,
    arrivals: () => arrivals,
    arrive: async () => {
      arrive(ui);
      await Promise.resolve();
    },
    fail: async () => {
      fail(new Error("navigated"));
      await Promise.resolve();
      await Promise.resolve();
    },
  };
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("createBadgeRenderer", () => {
  it("renders the chip synchronously in a closed shadow root of a host on <html>", () => {
    const { document, renderer, hosts } = setup();
    const host = renderer.render(exampleBadgeProps());
    expect(host.parentElement).toBe(document.documentElement);
    expect(host.shadowRoot).toBeNull();
    expect(hosts).toEqual([host]);
    const [chip] = renderer.focusables();
    expect(chip?.getAttribute("data-testid")).toBe("chip");
    expect(chip?.getAttribute("aria-label")).toContain("0xd8dA…6045");
  });

  it("keeps the chip until the card's chunk has arrived, then opens the card in its slot", async () => {
    const { renderer, cards, arrivals, arrive } = setup();
    renderer.loadCard();
    renderer.render(exampleBadgeProps({ expanded: true }));
    expect(renderer.focusables()[0]?.getAttribute("data-testid")).toBe("chip");
    expect(cards).toEqual([]);
    await arrive();
    expect(arrivals()).toBe(1);
    expect(renderer.cardReady()).toBe(true);
    renderer.render(exampleBadgeProps({ expanded: true }));
    expect(renderer.focusables()).toEqual([]);
    expect(cards).toHaveLength(1);
    expect(cards[0]?.slot.className).toBe("card-slot");
    expect(cards[0]?.props?.expanded).toBe(true);
  });

  it("unmounts the card when it closes or the badge is cleared", async () => {
    const { renderer, cards, arrive } = setup();
    renderer.loadCard();
    await arrive();
    renderer.render(exampleBadgeProps({ expanded: true }));
    const slot = cards[0]?.slot;
    renderer.render(exampleBadgeProps({ expanded: false }));
    expect(cards[1]).toEqual({ slot, props: null });
    renderer.render(exampleBadgeProps({ expanded: true }));
    const host = renderer.host();
    renderer.clear();
    expect(cards.at(-1)?.props).toBeNull();
    expect(host?.style.getPropertyValue("display")).toBe("none");
  });

  it("loads the chunk once, and again after a failed load", async () => {
    const { renderer, loads, fail } = setup();
    renderer.loadCard();
    renderer.loadCard();
    expect(loads()).toBe(1);
    await fail();
    renderer.loadCard();
    expect(loads()).toBe(2);
  });

  it("creates a new host when the page removed the old one", () => {
    const { renderer, hosts } = setup();
    const first = renderer.render(exampleBadgeProps());
    first.remove();
    const second = renderer.render(exampleBadgeProps());
    expect(second).not.toBe(first);
    expect(second.isConnected).toBe(true);
    expect(hosts).toEqual([first, second]);
    renderer.destroy();
    expect(second.isConnected).toBe(false);
  });

  it("counts the card's disclosure toggles at the edges of its tab order: Shift+Tab from the first goes back to the field, Tab from the last on past it", async () => {
    const { document } = parseHTML(
      '<html><body><input id="field"><button id="after">Send</button></body></html>',
    );
    vi.stubGlobal("document", document);
    const field = document.getElementById("field") as unknown as HTMLElement;
    const after = document.getElementById("after") as unknown as HTMLElement;
    // Drawn and in the tab order, as a browser has it (linkedom lays nothing out, and gives
    // every element a tabIndex of -1).
    after.getBoundingClientRect = () => ({ width: 80, height: 24 }) as DOMRect;
    Object.defineProperty(after, "tabIndex", { value: 0 });
    const focused: string[] = [];
    field.focus = () => void focused.push("field");
    after.focus = () => void focused.push("after");
    // A card whose first and last controls are disclosure toggles, each hiding a button.
    const ui: VerdictUi = {
      renderCard: (slot) => {
        slot.innerHTML = `<section data-testid="card" tabindex="-1">
          <details><summary data-action="details">Details</summary><button>Copy report</button></details>
          <button data-action="copy-address">Copy address</button>
          <details><summary data-action="check-again">Check again</summary><button>Check</button></details>
        </section>`;
      },
    };
    const renderer = createBadgeRenderer({
      doc: document as unknown as Document,
      loadVerdictUi: async () => ui,
      onHost: () => {},
      onCardArrived: () => {},
    });
    renderer.loadCard();
    await Promise.resolve();
    renderer.render(exampleBadgeProps({ expanded: true }));
    // The badge as the controller shows it (the renderer leaves the host's display to it).
    const host = { style: { display: "block" } } as unknown as HTMLElement;
    expect(renderer.focusables().map((e) => e.getAttribute("data-action"))).toEqual([
      "details",
      "copy-address",
      "check-again",
    ]);
    const listeners = new Map<string, (event: unknown) => void>();
    let active: Element | null = null;
    createBadgeKeyboard({
      doc: document as unknown as Document,
      win: {} as Window,
      ctx: {
        addEventListener: ((_win: unknown, type: string, listener: (event: unknown) => void) =>
          listeners.set(type, listener)) as never,
      },
      target: () => ({ host, field, expanded: true }),
      focusables: renderer.focusables,
      activeElement: () => active,
      collapse: () => {},
    });
    // A person's Tab (or Shift+Tab) on the badge control `from`; whether the badge took it.
    const tab = (from: HTMLElement | undefined, shiftKey: boolean) => {
      active = from ?? null;
      let prevented = false;
      listeners.get("keydown")?.({
        isTrusted: true,
        key: "Tab",
        shiftKey,
        altKey: false,
        ctrlKey: false,
        metaKey: false,
        composedPath: () => [from, host],
        preventDefault: () => {
          prevented = true;
        },
      });
      return prevented;
    };
    const controls = renderer.focusables();
    expect(tab(controls[0], true)).toBe(true);
    expect(tab(controls.at(-1), false)).toBe(true);
    expect(focused).toEqual(["field", "after"]);
    // Between the edges the browser moves the focus on its own.
    expect(tab(controls[1], false)).toBe(false);
    expect(tab(controls[1], true)).toBe(false);
  });
});
