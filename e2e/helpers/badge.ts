import type { CDPSession, Page } from "@playwright/test";

// The badge lives in a CLOSED shadow root, which page scripts (and so Playwright locators)
// cannot enter. The DevTools protocol can: DOM.getDocument with pierce returns closed roots.
// Clicks go through page.mouse, so the extension sees real, trusted clicks.

type CdpNode = {
  nodeId: number;
  nodeType: number;
  localName?: string;
  nodeValue?: string;
  attributes?: string[];
  children?: CdpNode[];
  shadowRoots?: CdpNode[];
  shadowRootType?: string;
};

export type BadgeSnapshot = {
  /** data-status of the badge: valid, missing, invalid or malformed. */
  status: string | null;
  /** Text by data-testid (checksum, address, lookalike, verdict-level, ...); the first of each. */
  byTestId: Record<string, string>;
  /** Every text by data-testid, in document order (token-mismatch flags can be several). */
  allByTestId: Record<string, string[]>;
  /** Rows of the verdict's facts table by chain name (cells joined by " | "). */
  rows: Record<string, string>;
  /** data-code of the outcome (a refusal's reason). */
  code: string | null;
  /** The chain the paid buttons will check. */
  chain: string | null;
  /** data-state of the paid-check area, when shown. */
  state: string | null;
  /**
   * data-click-ready: a paid click would count now (the badge has stayed put and, by
   * IntersectionObserver v2, been visible and uncovered for a moment).
   */
  clickReady: boolean;
  text: string;
  visible: boolean;
};

const sessions = new WeakMap<Page, CDPSession>();

async function cdp(page: Page): Promise<CDPSession> {
  let session = sessions.get(page);
  if (!session) {
    session = await page.context().newCDPSession(page);
    sessions.set(page, session);
  }
  return session;
}

function attr(node: CdpNode, name: string): string | null {
  const list = node.attributes ?? [];
  for (let i = 0; i < list.length; i += 2) if (list[i] === name) return list[i + 1] ?? null;
  return null;
}

// Author shadow roots only: a <select> has a user-agent root that repeats its options' text.
function childrenOf(node: CdpNode): CdpNode[] {
  const roots = (node.shadowRoots ?? []).filter((r) => r.shadowRootType !== "user-agent");
  return [...roots, ...(node.children ?? [])];
}

function* walk(node: CdpNode): Generator<CdpNode> {
  yield node;
  for (const child of childrenOf(node)) yield* walk(child);
}

function textWithoutStyles(node: CdpNode): string {
  if (node.localName === "style") return "";
  if (node.nodeType === 3) return node.nodeValue ?? "";
  return childrenOf(node).map(textWithoutStyles).join("");
}

async function badgeRoot(page: Page): Promise<{ host: CdpNode; root: CdpNode } | null> {
  const session = await cdp(page);
  const { root } = (await session.send("DOM.getDocument", { depth: -1, pierce: true })) as {
    root: CdpNode;
  };
  for (const node of walk(root)) {
    if (node.localName === "presend-badge" && node.shadowRoots?.[0]) {
      return { host: node, root: node.shadowRoots[0] };
    }
  }
  return null;
}

/** What the badge shows right now (or visible: false). */
export async function readBadge(page: Page): Promise<BadgeSnapshot> {
  const found = await badgeRoot(page);
  const empty = {
    status: null,
    byTestId: {},
    allByTestId: {},
    rows: {},
    code: null,
    chain: null,
    state: null,
    clickReady: false,
    text: "",
    visible: false,
  };
  if (!found) return empty;
  const visible = !(attr(found.host, "style") ?? "").includes("display: none");
  const byTestId: Record<string, string> = {};
  const allByTestId: Record<string, string[]> = {};
  const rows: Record<string, string> = {};
  let status: string | null = null;
  let state: string | null = null;
  let chain: string | null = null;
  let code: string | null = null;
  let clickReady: string | null = null;
  for (const node of walk(found.root)) {
    const testId = attr(node, "data-testid");
    if (testId) {
      const text = textWithoutStyles(node);
      byTestId[testId] ??= text;
      allByTestId[testId] = [...(allByTestId[testId] ?? []), text];
    }
    if (node.localName === "tr" && attr(node, "data-chain")) {
      const cells = childrenOf(node).filter((c) => c.localName === "td");
      rows[attr(node, "data-chain") as string] = cells.map(textWithoutStyles).join(" | ");
    } else {
      chain ??= attr(node, "data-chain");
    }
    status ??= attr(node, "data-status");
    state ??= attr(node, "data-state");
    code ??= attr(node, "data-code");
    clickReady ??= attr(node, "data-click-ready");
  }
  return {
    status,
    byTestId,
    allByTestId,
    rows,
    code,
    chain,
    state,
    clickReady: clickReady === "true",
    text: textWithoutStyles(found.root),
    visible,
  };
}

/** A finished paid check: a verdict, or a refusal, rejection or failure. */
export const finished = (b: BadgeSnapshot): boolean =>
  "verdict-level" in b.byTestId || ["refused", "rejected", "failed"].includes(b.state ?? "");

/** Waits until `predicate` holds for the badge, returning the snapshot that satisfied it. */
export async function waitForBadge(
  page: Page,
  predicate: (badge: BadgeSnapshot) => boolean,
  timeoutMs = 10_000,
): Promise<BadgeSnapshot> {
  const deadline = Date.now() + timeoutMs;
  let last = await readBadge(page);
  while (!predicate(last)) {
    if (Date.now() > deadline) {
      throw new Error(`Badge did not reach the expected state; last: ${JSON.stringify(last)}`);
    }
    await page.waitForTimeout(50);
    last = await readBadge(page);
  }
  return last;
}

async function badgeNode(page: Page, name: string, value: string): Promise<CdpNode> {
  const found = await badgeRoot(page);
  if (!found) throw new Error("No badge on the page.");
  const node = [...walk(found.root)].find((n) => attr(n, name) === value);
  if (!node) throw new Error(`No badge element with ${name}=${value}.`);
  return node;
}

/** A computed style property of the badge element with data-testid `testId` (e.g. its colour). */
export async function badgeStyle(page: Page, testId: string, property: string): Promise<string> {
  const node = await badgeNode(page, "data-testid", testId);
  const session = await cdp(page);
  const { object } = (await session.send("DOM.resolveNode", { nodeId: node.nodeId })) as {
    object: { objectId: string };
  };
  const { result } = (await session.send("Runtime.callFunctionOn", {
    objectId: object.objectId,
    functionDeclaration: "function (p) { return getComputedStyle(this).getPropertyValue(p); }",
    arguments: [{ value: property }],
    returnByValue: true,
  })) as { result: { value: string } };
  return result.value;
}

/**
 * Clicks the badge button with data-action `action` like a person would (trusted click). A
 * paid button is clicked once the badge says the click would count (it refuses clicks on a
 * badge that just appeared, moved, or was covered); `whenReady: false` clicks at once.
 */
export async function clickBadgeButton(
  page: Page,
  action: string,
  { whenReady = action === "check" || action === "deep" } = {},
): Promise<void> {
  if (whenReady) await waitForBadge(page, (b) => b.clickReady);
  const button = await badgeNode(page, "data-action", action);
  const session = await cdp(page);
  const { model } = (await session.send("DOM.getBoxModel", { nodeId: button.nodeId })) as {
    model: { content: number[] };
  };
  const [x1 = 0, y1 = 0, , , x3 = 0, y3 = 0] = model.content;
  await page.mouse.click((x1 + x3) / 2, (y1 + y3) / 2);
}
