import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { createBadgeKeyboard, type KeyboardTarget } from "./createBadgeKeyboard";

// Something focusable that records focus and blur.
function focusable(name: string, log: string[]) {
  return {
    name,
    focus: () => log.push(`focus ${name}`),
    blur: () => log.push(`blur ${name}`),
  } as unknown as HTMLElement;
}

// The badge (host, controls inside its shadow root), its field, and the window's capture listeners.
function setup(expanded = false) {
  const log: string[] = [];
  const { document } = parseHTML(`<html><body><input id="field"></body></html>`);
  const field = document.getElementById("field") as unknown as HTMLElement;
  field.focus = () => log.push("focus field");
  const host = { style: { display: "block" } } as unknown as HTMLElement;
  const controls = [focusable("first", log), focusable("last", log)];
  let active: Element | null = null;
  let target: KeyboardTarget | null = { host, field, expanded };
  const listeners = new Map<string, (event: unknown) => void>();
  createBadgeKeyboard({
    doc: { activeElement: focusable("page", log) as unknown as Element },
    win: {} as Window,
    ctx: {
      addEventListener: ((_win: unknown, type: string, listener: (event: unknown) => void) =>
        listeners.set(type, listener)) as never,
    },
    target: () => target,
    focusables: () => controls,
    activeElement: () => active,
    collapse: () => {
      log.push("collapse");
      if (target) target = { ...target, expanded: false };
    },
  });
  // A key or pointer event whose composed path starts at `from` (a control sits inside the host).
  const press = (type: string, from: unknown, init: Partial<KeyboardEvent> = {}) => {
    let prevented = false;
    const path = from === field ? [field] : from === "page" ? [] : [from, host];
    listeners.get(type)?.({
      isTrusted: true,
      shiftKey: false,
      altKey: false,
      ctrlKey: false,
      metaKey: false,
      ...init,
      composedPath: () => path,
      preventDefault: () => {
        prevented = true;
      },
    });
    return prevented;
  };
  return {
    log,
    field,
    host,
    controls,
    press,
    focusIn: (element: unknown) => {
      active = element as Element;
    },
    hideBadge: () => {
      target = null;
    },
  };
}

describe("createBadgeKeyboard", () => {
  it("moves Tab from the field to the badge's first control", () => {
    const { log, field, press } = setup();
    expect(press("keydown", field, { key: "Tab" })).toBe(true);
    expect(log).toEqual(["focus first"]);
  });

  it("leaves Shift+Tab from the field, and Tab with a modifier, to the page", () => {
    const { log, field, press } = setup();
    expect(press("keydown", field, { key: "Tab", shiftKey: true })).toBe(false);
    expect(press("keydown", field, { key: "Tab", ctrlKey: true })).toBe(false);
    expect(log).toEqual([]);
  });

  it("returns Shift+Tab from the first control to the field", () => {
    const { log, controls, press, focusIn } = setup(true);
    focusIn(controls[0]);
    expect(press("keydown", controls[0], { key: "Tab", shiftKey: true })).toBe(true);
    expect(log).toEqual(["focus field"]);
  });

  it("leaves Tab between the badge's own controls to the browser", () => {
    const { log, controls, press, focusIn } = setup(true);
    focusIn(controls[0]);
    expect(press("keydown", controls[0], { key: "Tab" })).toBe(false);
    expect(log).toEqual([]);
  });

  it("moves Tab from the last control past the field (blurring when nothing follows it)", () => {
    const { log, controls, press, focusIn } = setup(true);
    focusIn(controls[1]);
    expect(press("keydown", controls[1], { key: "Tab" })).toBe(true);
    expect(log).toEqual(["blur page"]);
  });

  it("collapses the card on Escape in the badge, keeping the focus in it", () => {
    const { log, controls, press } = setup(true);
    expect(press("keydown", controls[1], { key: "Escape" })).toBe(true);
    expect(log).toEqual(["collapse", "focus first"]);
  });

  it("collapses the card on Escape in the field, leaving the focus there", () => {
    const { log, field, press } = setup(true);
    expect(press("keydown", field, { key: "Escape" })).toBe(true);
    expect(log).toEqual(["collapse"]);
  });

  it("collapses an open card on Escape anywhere on the page, leaving the key to the page", () => {
    const open = setup(true);
    expect(open.press("keydown", "page", { key: "Escape" })).toBe(false);
    expect(open.log).toEqual(["collapse"]);
  });

  it("ignores Escape on a chip", () => {
    const chip = setup(false);
    expect(chip.press("keydown", chip.field, { key: "Escape" })).toBe(false);
    expect(chip.press("keydown", "page", { key: "Escape" })).toBe(false);
    expect(chip.log).toEqual([]);
  });

  it("closes the card on a pointer down outside the badge, not inside it", () => {
    const { log, controls, press } = setup(true);
    press("pointerdown", controls[0]);
    expect(log).toEqual([]);
    press("pointerdown", "page");
    expect(log).toEqual(["collapse"]);
  });

  it("does nothing while no badge is shown or its host is hidden", () => {
    const hidden = setup(true);
    (hidden.host.style as { display: string }).display = "none";
    expect(hidden.press("keydown", hidden.field, { key: "Tab" })).toBe(false);
    const gone = setup(true);
    gone.hideBadge();
    expect(gone.press("keydown", gone.field, { key: "Tab" })).toBe(false);
    gone.press("pointerdown", "page");
    expect([...hidden.log, ...gone.log]).toEqual([]);
  });

  it("ignores keys and pointers a page script dispatches (isTrusted false)", () => {
    // A page's own Tab would move the focus into the badge, so the person's next Enter or
    // Space lands on its buttons; its Escape or pointer down would close the verdict.
    const chip = setup(false);
    expect(chip.press("keydown", chip.field, { key: "Tab", isTrusted: false })).toBe(false);
    const open = setup(true);
    expect(open.press("keydown", open.field, { key: "Escape", isTrusted: false })).toBe(false);
    open.press("pointerdown", "page", { isTrusted: false });
    expect([...chip.log, ...open.log]).toEqual([]);
  });
});
