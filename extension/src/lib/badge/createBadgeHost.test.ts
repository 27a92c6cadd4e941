import { parseHTML } from "linkedom";
import { describe, expect, it } from "vitest";
import { createBadgeHost, setHostStyle } from "./createBadgeHost";

const mask = "linear-gradient(transparent, transparent)";
// What a page script adds to the host's style attribute (linkedom reports attribute writes;
// the real style.setProperty path runs in Chromium, e2e clickjacking.spec).
const pageStyles = (host: HTMLElement, css: string) =>
  host.setAttribute("style", `${host.getAttribute("style") ?? ""};${css}`);
// MutationObserver records are delivered in a microtask, and the host is restored in a task
// after that.
const delivered = () => new Promise((resolve) => setTimeout(resolve, 20));

function setup() {
  const { document, MutationObserver } = parseHTML("<html><body></body></html>");
  let tampered = 0;
  const { host } = createBadgeHost(document as unknown as Document, () => {
    tampered += 1;
  });
  return {
    host,
    tampered: () => tampered,
    Observer: MutationObserver as unknown as typeof globalThis.MutationObserver,
  };
}

describe("createBadgeHost", () => {
  it("lays the badge out left to right whatever the page's direction (all: initial keeps it)", () => {
    const { host } = setup();
    expect(host.style.getPropertyValue("direction")).toBe("ltr");
    expect(host.style.getPropertyValue("unicode-bidi")).toBe("isolate");
  });

  it("takes the extension's own style changes as they are", async () => {
    const { host, tampered } = setup();
    setHostStyle(host, "display", "block");
    setHostStyle(host, "top", "12px");
    await delivered();
    expect(host.style.getPropertyValue("display")).toBe("block");
    expect(host.style.getPropertyValue("top")).toBe("12px");
    expect(tampered()).toBe(0);
  });

  it("undoes a page script's mask or text fill on the host and says so", async () => {
    // A mask on the host hides the whole badge while IntersectionObserver v2 still reports it
    // visible: a click on the invisible paid button would count.
    const { host, tampered } = setup();
    setHostStyle(host, "display", "block");
    pageStyles(
      host,
      `mask-image:${mask} !important;-webkit-text-fill-color:transparent !important`,
    );
    // Said at once (no paid click counts from now), undone in the next task.
    await Promise.resolve();
    expect(tampered()).toBe(1);
    await delivered();
    expect(host.getAttribute("style")).not.toContain("transparent");
    expect(host.style.getPropertyValue("display")).toBe("block");
    expect(host.style.getPropertyValue("mask")).toBe("none");
    expect(tampered()).toBe(1);
  });

  it("leaves other attributes to the page (they cannot beat the inline !important styles)", async () => {
    const { host, tampered } = setup();
    host.setAttribute("data-analytics", "seen");
    await delivered();
    expect(host.getAttribute("data-analytics")).toBe("seen");
    expect(tampered()).toBe(0);
  });

  it("fights a script that keeps re-applying its style one task at a time, saying so each time", async () => {
    // Two observers undoing each other in their callbacks would loop in microtasks and hang
    // the page: the restore waits for a task, so the page's own tasks still run between rounds.
    const { host, tampered, Observer } = setup();
    let applied = 0;
    // Puts its mask back whenever it is gone (as a page, or another extension, would).
    const fighter = new Observer(() => {
      if (applied >= 1_000 || host.getAttribute("style")?.includes("mask-image")) return;
      applied += 1;
      pageStyles(host, `mask-image:${mask} !important`);
    });
    fighter.observe(host, { attributes: true });
    pageStyles(host, `mask-image:${mask} !important`);
    const beforeNextTask = await new Promise<number>((resolve) =>
      setTimeout(() => resolve(applied), 0),
    );
    expect(beforeNextTask).toBeLessThanOrEqual(1);
    await new Promise((resolve) => setTimeout(resolve, 100));
    fighter.disconnect();
    await delivered();
    expect(host.getAttribute("style")).not.toContain("transparent");
    expect(tampered()).toBeGreaterThanOrEqual(2);
  });

  it("notices a page change the extension's next write would otherwise hide", async () => {
    const { host, tampered } = setup();
    pageStyles(host, `mask-image:${mask} !important`);
    // The badge moves in the same task, before the page's change is reported.
    setHostStyle(host, "left", "40px");
    expect(host.getAttribute("style")).not.toContain("transparent");
    expect(host.style.getPropertyValue("left")).toBe("40px");
    expect(tampered()).toBe(1);
    await delivered();
    expect(tampered()).toBe(1);
  });
});
