import { parseHTML } from "linkedom";
import { afterEach, describe, expect, it, vi } from "vitest";
import { findAddressCandidate } from "../address/findAddressCandidate";
import { ancestorsOf } from "../dom/ancestorsOf";
import type { EditableField } from "../dom/editableFieldFrom";
import { exampleHistoryEntry } from "../storage/exampleHistoryEntry";
import type { BadgeProps } from "./BadgeCard";
import { settleMs } from "./clickGate";
import { type BadgeControllerOptions, createBadgeController } from "./createBadgeController";
import type { VerdictUi } from "./verdictUi";

// The content script renders with Preact through preact/compat (the build's alias); so does this test.
vi.mock("react", () => import("preact/compat"));
vi.mock("react-dom", () => import("preact/compat"));
vi.mock("react-dom/client", () => import("preact/compat/client"));
vi.mock("react/jsx-runtime", () => import("preact/jsx-runtime"));
vi.mock("react/jsx-dev-runtime", () => import("preact/jsx-runtime"));

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";

// A page with one field, a clock, the badge's closed shadow root (kept by the test), and a card
// chunk that records the props it is given.
function setup(extra: Partial<BadgeControllerOptions> = {}) {
  const { document, window } = parseHTML(
    `<html><head></head><body><input id="field"></body></html>`,
  );
  vi.stubGlobal("document", document);
  vi.stubGlobal("window", window);
  const doc = document as unknown as Document;
  let shadow: ShadowRoot | null = null;
  const createElement = doc.createElement.bind(doc);
  doc.createElement = ((name: string) => {
    const element = createElement(name);
    if (name === "presend-badge") {
      const attach = element.attachShadow.bind(element);
      element.attachShadow = (init) => {
        shadow = attach(init);
        return shadow;
      };
    }
    return element;
  }) as typeof doc.createElement;
  const field = doc.getElementById("field") as HTMLInputElement;
  field.value = address;
  // On screen (linkedom lays nothing out): a chip whose field has no box is hidden with it.
  field.getBoundingClientRect = () =>
    ({ top: 100, bottom: 120, left: 100, right: 300, width: 200, height: 20 }) as DOMRect;
  let time = 1_000;
  const cards: Array<BadgeProps | null> = [];
  const ui: VerdictUi = { renderCard: (_slot, props) => void cards.push(props) };
  const started: unknown[] = [];
  const marks: string[] = [];
  const badge = createBadgeController({
    doc,
    // linkedom has no animation frames; the ctx below never runs one.
    win: Object.assign(window, { cancelAnimationFrame: () => {} }) as unknown as Window,
    ctx: {
      addEventListener: () => {},
      setTimeout: (() => 1) as never,
      setInterval: (() => 1) as never,
      requestAnimationFrame: (() => 1) as never,
      onInvalidated: () => () => {},
    },
    known: () => [],
    startCheck: (request) => started.push(request),
    startRecovery: () => {},
    loadVerdictUi: async () => ui,
    performance: {
      mark: ((name: string) => marks.push(name)) as never,
      measure: (() => {}) as never,
      now: () => time,
    },
    ...extra,
  });
  const candidate = findAddressCandidate(address);
  if (!candidate) throw new Error("no candidate");
  const enter = (trigger: "paste" | "script" = "paste") =>
    badge.show({
      field: field as EditableField,
      ancestors: ancestorsOf(field as EditableField),
      candidate,
      trigger,
      at: time,
    });
  return {
    badge,
    field,
    cards,
    started,
    marks,
    enter,
    chip: () => (shadow as ShadowRoot | null)?.querySelector('[data-testid="chip"]') ?? null,
    host: () => doc.querySelector("presend-badge") as HTMLElement | null,
    card: () => cards.at(-1) ?? null,
    /** A click on the chip (opens the card). */
    openCard: () => {
      const button = (shadow as ShadowRoot | null)?.querySelector('[data-testid="chip"]');
      button?.dispatchEvent(new window.Event("click", { bubbles: true }) as unknown as Event);
    },
    wait: (ms: number) => {
      time += ms;
    },
  };
}

// Lets the card chunk's promise settle.
const chunkArrives = () => new Promise((resolve) => setTimeout(resolve, 0));

afterEach(() => {
  vi.unstubAllGlobals();
});

describe("createBadgeController", () => {
  it("shows the chip for an address entered, once for the same address again", () => {
    const { enter, chip, host, marks } = setup();
    enter();
    expect(chip()?.getAttribute("aria-label")).toContain("0xd8dA…6045");
    expect(host()?.style.getPropertyValue("display")).toBe("block");
    enter();
    expect(marks.filter((name) => name === "presend:chip")).toHaveLength(1);
  });

  it("shows the badge beside the chip a page put in the field's place before the badge could show", () => {
    const { badge, field, chip, host } = setup();
    // The page's own input handler turned the address into a chip while the badge's code loaded.
    const ancestors = ancestorsOf(field as EditableField);
    const pill = document.createElement("span");
    pill.textContent = address;
    pill.getBoundingClientRect = field.getBoundingClientRect;
    field.replaceWith(pill);
    const candidate = findAddressCandidate(address);
    if (!candidate) throw new Error("no candidate");
    badge.show({ field: field as EditableField, ancestors, candidate, trigger: "paste", at: 1 });
    expect(chip()?.getAttribute("aria-label")).toContain("0xd8dA…6045");
    // The next re-read of the field finds the badge's field in the page: the badge stays.
    badge.follow();
    expect(host()?.style.getPropertyValue("display")).toBe("block");
  });

  it("shows no badge for a field gone with its address before the badge could show", () => {
    const { badge, field, host } = setup();
    const ancestors = ancestorsOf(field as EditableField);
    field.remove();
    const candidate = findAddressCandidate(address);
    if (!candidate) throw new Error("no candidate");
    badge.show({ field: field as EditableField, ancestors, candidate, trigger: "paste", at: 1 });
    expect(host()).toBeNull();
  });

  it("opens the card on a paid check once the chunk is here, and follows only that session", async () => {
    const { badge, enter, card, chip } = setup();
    enter();
    await chunkArrives();
    badge.beginSession("s1");
    expect(chip()).toBeNull();
    expect(card()).toMatchObject({ expanded: true, busy: true, progress: { step: "requesting" } });
    badge.progress("other", { step: "paying" } as never);
    expect(card()?.progress).toEqual({ step: "requesting" });
  });

  it("offers the paid checks again after a settings change, in place of a refusal with nothing charged", async () => {
    const { badge, enter, card } = setup();
    enter();
    await chunkArrives();
    badge.beginSession("s1");
    badge.finish("s1", { type: "refused", code: "cap_reached", message: "cap" });
    expect(card()?.outcome).toMatchObject({ type: "refused" });
    badge.settingsChanged();
    expect(card()?.outcome).toBeNull();
    // A payment that may have been charged stays shown: its report can still be fetched.
    badge.beginSession("s2");
    badge.finish("s2", { type: "failed", message: "lost", charged: "unknown", recoveryId: "r1" });
    badge.settingsChanged();
    expect(card()?.outcome).toMatchObject({ type: "failed", charged: "unknown" });
  });

  it("keeps the badge of a running check when its field is cleared, hides it otherwise", async () => {
    const { badge, enter, field, host } = setup();
    enter();
    await chunkArrives();
    badge.beginSession("s1");
    badge.clear(field as EditableField);
    expect(host()?.style.getPropertyValue("display")).toBe("block");
    const fresh = setup();
    fresh.enter();
    fresh.badge.clear(fresh.field as EditableField);
    expect(fresh.host()?.style.getPropertyValue("display")).toBe("none");
  });

  it("does not bring back a dismissed value a script sets again, but does for a paste", async () => {
    const { enter, card, host, openCard } = setup();
    enter();
    await chunkArrives();
    openCard();
    card()?.onClose();
    expect(host()?.style.getPropertyValue("display")).toBe("none");
    enter("script");
    expect(host()?.style.getPropertyValue("display")).toBe("none");
    enter("paste");
    expect(host()?.style.getPropertyValue("display")).toBe("block");
  });

  it("preselects the page wallet's chain unless the person picked one", async () => {
    const optimism = { available: true, address: null, chainId: 10, name: null, others: [] };
    const wallet = setup();
    wallet.enter();
    await chunkArrives();
    wallet.openCard();
    wallet.badge.setWallet(optimism);
    expect(wallet.card()).toMatchObject({ chain: "optimism", chainSource: "wallet" });
    const picked = setup();
    picked.enter();
    await chunkArrives();
    picked.openCard();
    picked.card()?.onChainChange("arbitrum");
    picked.badge.setWallet(optimism);
    expect(picked.card()).toMatchObject({ chain: "arbitrum", chainSource: "user" });
  });

  it("follows the wallet to another chain after a verdict, and shows the verdict again back on its chain", async () => {
    const entry = exampleHistoryEntry({ address, checkedAt: new Date() });
    const onChain = (chainId: number) => ({
      available: true,
      address: null,
      chainId,
      name: null,
      others: [],
    });
    const { badge, enter, card, openCard } = setup({
      freshVerdict: (_address, chain) => (chain === "base" ? entry : null),
    });
    badge.setWallet(onChain(8453));
    enter();
    await chunkArrives();
    openCard();
    badge.beginSession("s1");
    badge.finish("s1", { type: "report", entry });
    expect(card()).toMatchObject({ chain: "base", outcome: { type: "report" } });
    // The dApp moves its wallet to Arbitrum: the Base verdict says nothing there.
    badge.setWallet(onChain(42161));
    expect(card()).toMatchObject({ chain: "arbitrum", outcome: null, busy: false });
    badge.setWallet(onChain(8453));
    expect(card()).toMatchObject({ chain: "base", outcome: { type: "report", entry } });
  });

  it("refuses a paid click on a badge that just appeared, and starts it once it stayed put", async () => {
    const { enter, card, started, wait, openCard } = setup();
    enter();
    await chunkArrives();
    openCard();
    expect(card()?.expanded).toBe(true);
    card()?.onCheck("check");
    expect(started).toEqual([]);
    expect(card()?.refusedClick).toBe("moved");
    wait(settleMs + 1);
    card()?.onCheck("check");
    expect(started).toEqual([{ route: "check", address, chain: "base" }]);
  });

  it("pays again from 'Check again' once a check has finished, never while one runs", async () => {
    const { badge, enter, card, started, wait, openCard } = setup();
    enter();
    await chunkArrives();
    openCard();
    wait(settleMs + 1);
    card()?.onCheck("check");
    expect(started).toHaveLength(1);
    badge.beginSession("s1");
    // A second click while the first check runs starts nothing.
    card()?.onCheck("deep");
    expect(started).toHaveLength(1);
    badge.finish("s1", { type: "rejected", message: "You declined the payment in your wallet." });
    wait(settleMs + 1);
    card()?.onCheck("deep");
    expect(started).toEqual([
      { route: "check", address, chain: "base" },
      { route: "deep", address, chain: "base" },
    ]);
  });

  it("turns presend off on the site only from a badge that stayed put, as a paid click", async () => {
    const turnedOff: string[] = [];
    const { enter, card, wait, openCard } = setup({ turnOffSite: () => turnedOff.push("off") });
    enter();
    await chunkArrives();
    openCard();
    card()?.onTurnOffSite();
    expect(turnedOff).toEqual([]);
    expect(card()?.refusedClick).toBe("moved");
    wait(settleMs + 1);
    card()?.onTurnOffSite();
    expect(turnedOff).toEqual(["off"]);
  });

  describe("the side panel", () => {
    // A short viewport: no place for a 320 px card above or below the field.
    const noRoom = () => Object.assign(window, { innerWidth: 360, innerHeight: 400 });

    it("opens the panel instead of the card when there is no room, keeps only the chip, and tells the panel each change", async () => {
      const panelStates: unknown[] = [];
      const openPanel = vi.fn(async () => true);
      const { badge, enter, chip, openCard, card } = setup({
        openPanel,
        onPanelState: (state) => panelStates.push(state),
        site: "dapp.example",
      });
      noRoom();
      enter();
      await chunkArrives();
      openCard();
      expect(openPanel).toHaveBeenCalledTimes(1);
      await chunkArrives();
      expect(chip()).not.toBeNull();
      expect(card()?.expanded ?? false).toBe(false);
      expect(panelStates.at(-1)).toMatchObject({
        site: "dapp.example",
        candidate: { kind: "address", value: address },
        busy: false,
      });
      // A paid check under way would open the card: with the details in the panel, it does not.
      badge.beginSession("s1");
      expect(chip()).not.toBeNull();
      expect(panelStates.at(-1)).toMatchObject({ busy: true, progress: { step: "requesting" } });
      // The chip brings the panel back.
      openCard();
      expect(openPanel).toHaveBeenCalledTimes(2);
    });

    it("starts a paid check from the panel only for the address and chain the panel showed", async () => {
      const { badge, enter, started, openCard } = setup({ openPanel: async () => true });
      noRoom();
      enter();
      openCard();
      await chunkArrives();
      const other = "0x52908400098527886E0F7030069857D2E4169EE7";
      badge.panelAction({ action: "check", route: "check", address: other, chain: "base" });
      badge.panelAction({ action: "check", route: "check", address, chain: "arbitrum" });
      expect(started).toEqual([]);
      badge.panelAction({ action: "check", route: "deep", address, chain: "base" });
      expect(started).toEqual([{ route: "deep", address, chain: "base" }]);
    });

    it("opens the card in the page where the browser has no side panel", async () => {
      const { enter, openCard, card } = setup({ openPanel: async () => false });
      noRoom();
      enter();
      await chunkArrives();
      openCard();
      await chunkArrives();
      expect(card()).toMatchObject({ expanded: true });
    });
  });
});
