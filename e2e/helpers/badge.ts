import type { CDPSession, Frame, Page } from "@playwright/test";

// The badge lives in a CLOSED shadow root, which page scripts (and so Playwright locators)
// cannot enter. The DevTools protocol can: DOM.getDocument with pierce returns closed roots.
// Clicks go through page.mouse, so the extension sees real, trusted clicks. A badge in a frame
// is read through the frame's own session (a cross-origin frame runs in its own process) or,
// for a frame in the page's process, through the page's session and the frame's document.

/** The page, or one of its frames (each frame has its own badge). */
export type BadgeTarget = Page | Frame;

type CdpNode = {
  nodeId: number;
  contentDocument?: CdpNode;
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
  /** The card is open (false: only the chip shows). */
  expanded: boolean;
  /** The chip's label while collapsed (e.g. "Checksum OK · not checked", "Burn address", "Don't send"). */
  chip: string | null;
  /** The local level the badge shows (ok, caution, danger). */
  localLevel: string | null;
  /** The paid verdict's level code (ok, caution, warn, danger), once there is one. */
  level: string | null;
  /** The verdict's findings by data-code, each with its text. */
  reasons: Record<string, string>;
  text: string;
  visible: boolean;
};

const sessions = new WeakMap<BadgeTarget, CDPSession | null>();

function pageOf(target: BadgeTarget): Page {
  return "mainFrame" in target ? target : target.page();
}

// A frame in its own process has a session of its own; null for a frame in the page's process.
async function ownSession(target: BadgeTarget): Promise<CDPSession | null> {
  if (!sessions.has(target)) {
    const page = pageOf(target);
    const session = await page
      .context()
      .newCDPSession(target)
      .catch(() => null);
    sessions.set(target, session);
  }
  return sessions.get(target) ?? null;
}

async function cdp(target: BadgeTarget): Promise<CDPSession> {
  const own = await ownSession(target);
  if (own) return own;
  const page = pageOf(target);
  const session = await ownSession(page);
  if (!session) throw new Error("No DevTools session for the page.");
  return session;
}

// The document to search: the target's own, or an in-process frame's inside the page's tree.
async function documentOf(target: BadgeTarget): Promise<CdpNode> {
  const session = await cdp(target);
  const { root } = (await session.send("DOM.getDocument", { depth: -1, pierce: true })) as {
    root: CdpNode;
  };
  if ("mainFrame" in target || (await ownSession(target))) return root;
  const name = target.name();
  for (const node of walk(root, true)) {
    if (node.localName === "iframe" && attr(node, "name") === name && node.contentDocument) {
      return node.contentDocument;
    }
  }
  throw new Error(`No frame named ${name} in the page.`);
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

// Frames' documents are left out unless asked for: each frame has its own badge.
function* walk(node: CdpNode, intoFrames = false): Generator<CdpNode> {
  yield node;
  for (const child of childrenOf(node)) yield* walk(child, intoFrames);
  if (intoFrames && node.contentDocument) yield* walk(node.contentDocument, intoFrames);
}

function textWithoutStyles(node: CdpNode): string {
  if (node.localName === "style") return "";
  if (node.nodeType === 3) return node.nodeValue ?? "";
  return childrenOf(node).map(textWithoutStyles).join("");
}

async function badgeRoot(page: BadgeTarget): Promise<{ host: CdpNode; root: CdpNode } | null> {
  const root = await documentOf(page);
  for (const node of walk(root)) {
    if (node.localName === "presend-badge" && node.shadowRoots?.[0]) {
      return { host: node, root: node.shadowRoots[0] };
    }
  }
  return null;
}

/** What the badge shows right now (or visible: false). */
export async function readBadge(page: BadgeTarget): Promise<BadgeSnapshot> {
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
    expanded: false,
    chip: null,
    localLevel: null,
    level: null,
    reasons: {},
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
  let expanded: string | null = null;
  let localLevel: string | null = null;
  let level: string | null = null;
  const reasons: Record<string, string> = {};
  for (const node of walk(found.root)) {
    if (attr(node, "class") === "verdict") level ??= attr(node, "data-level");
    if (attr(node, "data-expanded")) {
      expanded ??= attr(node, "data-expanded");
      localLevel ??= attr(node, "data-level");
    }
    const reasonCode = attr(node, "data-code");
    if (reasonCode && (node.localName === "li" || attr(node, "data-testid") === "verdict-reason")) {
      reasons[reasonCode] = textWithoutStyles(node);
    }
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
    expanded: expanded === "true",
    chip: byTestId.chip ?? null,
    localLevel,
    level,
    reasons,
    text: textWithoutStyles(found.root),
    visible,
  };
}

/** A finished paid check: a verdict, or a refusal, rejection or failure. */
export const finished = (b: BadgeSnapshot): boolean =>
  "verdict-level" in b.byTestId || ["refused", "rejected", "failed"].includes(b.state ?? "");

/** Waits until `predicate` holds for the badge, returning the snapshot that satisfied it. */
export async function waitForBadge(
  page: BadgeTarget,
  predicate: (badge: BadgeSnapshot) => boolean,
  timeoutMs = 10_000,
): Promise<BadgeSnapshot> {
  const deadline = Date.now() + timeoutMs;
  let last = await readBadge(page);
  while (!predicate(last)) {
    if (Date.now() > deadline) {
      throw new Error(`Badge did not reach the expected state; last: ${JSON.stringify(last)}`);
    }
    await pageOf(page).waitForTimeout(50);
    last = await readBadge(page);
  }
  return last;
}

async function badgeNode(page: BadgeTarget, name: string, value: string): Promise<CdpNode> {
  const found = await badgeRoot(page);
  if (!found) throw new Error("No badge on the page.");
  const node = [...walk(found.root)].find((n) => attr(n, name) === value);
  if (!node) throw new Error(`No badge element with ${name}=${value}.`);
  return node;
}

/** A computed style property of the badge element with data-testid `testId` (e.g. its colour). */
export async function badgeStyle(
  page: BadgeTarget,
  testId: string,
  property: string,
): Promise<string> {
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
 * The fonts Chromium drew the text of the badge element with data-testid `testId` in (family
 * names as the platform knows them), through the DevTools protocol.
 */
export async function badgeFonts(page: BadgeTarget, testId: string): Promise<string[]> {
  const session = await cdp(page);
  await session.send("DOM.enable");
  await session.send("CSS.enable");
  const node = await badgeNode(page, "data-testid", testId);
  const { fonts } = (await session.send("CSS.getPlatformFontsForNode", {
    nodeId: node.nodeId,
  })) as { fonts: Array<{ familyName: string }> };
  return fonts.map((font) => font.familyName);
}

/**
 * Clicks the badge button with data-action `action` like a person would (trusted click). A
 * paid button is clicked once the badge says the click would count (it refuses clicks on a
 * badge that just appeared, moved, or was covered); `whenReady: false` clicks at once.
 */
export async function clickBadgeButton(
  page: BadgeTarget,
  action: string,
  { whenReady = action === "check" || action === "deep" } = {},
): Promise<void> {
  if (action !== "expand" && !(await readBadge(page)).expanded) await expandBadge(page);
  // A person scrolls the card to the button first (a short card in a frame scrolls inside).
  await onBadgeElement(
    page,
    action,
    "function () { this.scrollIntoView({ block: 'nearest' }); }",
    "data-action",
  );
  if (!whenReady) {
    await clickBadgeNode(page, await badgeNode(page, "data-action", action));
    return;
  }
  // The badge turns its paid buttons off again for a moment whenever it moves or is not seen
  // uncovered (the click gate); on a loaded machine that can happen between reading "ready" and
  // the click landing, and a click on a disabled button does nothing at all. A person clicks
  // again then, and so does this: only when the card did not change in any way (a refusal, a
  // check begun, an outcome all change it).
  for (let attempt = 1; ; attempt++) {
    const before = (await waitForBadge(page, (b) => b.clickReady)).text;
    await clickBadgeNode(page, await badgeNode(page, "data-action", action));
    const changed = await waitForBadge(page, (b) => b.text !== before, 2_000).then(
      () => true,
      () => false,
    );
    if (changed || attempt === 3) return;
  }
}

/** Opens the card by clicking the chip (a person's click), and waits until it shows. */
export async function expandBadge(page: BadgeTarget): Promise<BadgeSnapshot> {
  await waitForBadge(page, (b) => b.visible && ("chip" in b.byTestId || b.expanded));
  if (!(await readBadge(page)).expanded) {
    await clickBadgeNode(page, await badgeNode(page, "data-action", "expand"));
  }
  return waitForBadge(page, (b) => b.expanded);
}

/** The box of the badge element with data-testid or data-action `value`, in its frame's viewport. */
export async function badgeBox(
  page: BadgeTarget,
  value: string,
  name: "data-testid" | "data-action" = "data-testid",
): Promise<{ x: number; y: number; width: number; height: number }> {
  return nodeBox(page, await badgeNode(page, name, value));
}

/**
 * Runs the function source `fn` with `this` bound to the badge element with data-testid (or
 * data-action) `value`, inside the closed root, and returns its JSON result.
 */
export async function onBadgeElement<T>(
  page: BadgeTarget,
  value: string,
  fn: string,
  name: "data-testid" | "data-action" = "data-testid",
): Promise<T> {
  const node = await badgeNode(page, name, value);
  const session = await cdp(page);
  const { object } = (await session.send("DOM.resolveNode", { nodeId: node.nodeId })) as {
    object: { objectId: string };
  };
  const { result } = (await session.send("Runtime.callFunctionOn", {
    objectId: object.objectId,
    functionDeclaration: fn,
    returnByValue: true,
  })) as { result: { value: T } };
  return result.value;
}

async function clickBadgeNode(page: BadgeTarget, button: CdpNode): Promise<void> {
  const box = await settledBox(page, button);
  const offset = await frameOffset(page);
  await pageOf(page).mouse.click(
    offset.x + box.x + box.width / 2,
    offset.y + box.y + box.height / 2,
  );
}

// The node's box once it has stopped moving: the card grows while its facts and the wallet's
// answer arrive, and a click at where the button was a frame ago lands on something else (as
// Playwright's own "stable" check, which cannot reach into a closed shadow root).
async function settledBox(page: BadgeTarget, node: CdpNode) {
  let box = await nodeBox(page, node);
  for (let attempt = 0; attempt < 40; attempt++) {
    await pageOf(page).waitForTimeout(50);
    const next = await nodeBox(page, node);
    const same =
      next.x === box.x &&
      next.y === box.y &&
      next.width === box.width &&
      next.height === box.height;
    box = next;
    if (same) return box;
  }
  throw new Error("the badge element never stopped moving");
}

// Where a frame's viewport starts in the page (0, 0 for the page itself).
async function frameOffset(target: BadgeTarget): Promise<{ x: number; y: number }> {
  if ("mainFrame" in target) return { x: 0, y: 0 };
  const element = await target.frameElement();
  const inner = await element.evaluate((node) => {
    const frame = node as HTMLIFrameElement;
    const rect = frame.getBoundingClientRect();
    const style = getComputedStyle(frame);
    return {
      x: rect.left + frame.clientLeft + Number.parseFloat(style.paddingLeft),
      y: rect.top + frame.clientTop + Number.parseFloat(style.paddingTop),
    };
  });
  const parent = target.parentFrame();
  const outer = parent && parent !== pageOf(target).mainFrame() ? await frameOffset(parent) : null;
  return { x: inner.x + (outer?.x ?? 0), y: inner.y + (outer?.y ?? 0) };
}

// The element's box in its own frame's viewport.
async function nodeBox(page: BadgeTarget, node: CdpNode) {
  const session = await cdp(page);
  const { object } = (await session.send("DOM.resolveNode", { nodeId: node.nodeId })) as {
    object: { objectId: string };
  };
  const { result } = (await session.send("Runtime.callFunctionOn", {
    objectId: object.objectId,
    functionDeclaration:
      "function () { const r = this.getBoundingClientRect(); return { x: r.x, y: r.y, width: r.width, height: r.height }; }",
    returnByValue: true,
  })) as { result: { value: { x: number; y: number; width: number; height: number } } };
  return result.value;
}

/** What has the focus inside the badge's closed root (its data-action or data-testid), or null. */
export async function badgeFocus(
  page: BadgeTarget,
): Promise<{ name: string; outline: string } | null> {
  const found = await badgeRoot(page);
  if (!found) return null;
  const session = await cdp(page);
  const { object } = (await session.send("DOM.resolveNode", { nodeId: found.root.nodeId })) as {
    object: { objectId: string };
  };
  const { result } = (await session.send("Runtime.callFunctionOn", {
    objectId: object.objectId,
    functionDeclaration: `function () {
      const active = this.activeElement;
      if (!active) return null;
      const style = getComputedStyle(active);
      return {
        name: active.dataset.action ?? active.dataset.testid ?? active.localName,
        outline: style.outlineStyle + " " + style.outlineWidth + " " + style.outlineColor,
      };
    }`,
    returnByValue: true,
  })) as { result: { value: { name: string; outline: string } | null } };
  return result.value;
}

/** Presses Tab until the badge control `name` (data-action) has the focus, as a person would. */
export async function tabToBadgeControl(page: Page, name: string, maxPresses = 12): Promise<void> {
  for (let press = 0; press < maxPresses; press++) {
    if ((await badgeFocus(page))?.name === name) return;
    await page.keyboard.press("Tab");
  }
  throw new Error(
    `Tab never reached the badge's ${name}; last: ${JSON.stringify(await badgeFocus(page))}`,
  );
}
