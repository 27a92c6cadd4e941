import { webcrypto } from "node:crypto";
import { describe, expect, it } from "vitest";
import { openSecureChannel } from "./secureChannel";

// One window shared by both sides, as in a page: postMessage reaches every listener.
function sharedWindow() {
  const target = new EventTarget();
  const sent: unknown[] = [];
  const win = {
    addEventListener: target.addEventListener.bind(target),
    removeEventListener: target.removeEventListener.bind(target),
    postMessage(data: unknown) {
      sent.push(data);
      queueMicrotask(() => target.dispatchEvent(new MessageEvent("message", { data })));
    },
  } as unknown as Window;
  return { win, sent };
}

const subtle = webcrypto.subtle as unknown as SubtleCrypto;
const key = "11".repeat(32);
let counter = 0;
const randomId = () => `id-${++counter}`;
const settle = () => new Promise((resolve) => setTimeout(resolve, 20));

async function pair() {
  const { win, sent } = sharedWindow();
  const atMain: unknown[] = [];
  const atIsolated: unknown[] = [];
  const isolated = await openSecureChannel({
    win,
    side: "isolated",
    keyHex: key,
    subtle,
    randomId,
    onMessage: (b) => atIsolated.push(b),
  });
  const main = await openSecureChannel({
    win,
    side: "main",
    keyHex: key,
    subtle,
    randomId,
    onMessage: (b) => atMain.push(b),
  });
  return { win, sent, isolated, main, atMain, atIsolated };
}

describe("openSecureChannel", () => {
  it("delivers frames to the other side only", async () => {
    const { isolated, main, atMain, atIsolated } = await pair();
    await isolated.post({ kind: "info" });
    await main.post({ re: "x", ok: true });
    await settle();
    expect(atMain).toEqual([{ kind: "info" }]);
    expect(atIsolated).toEqual([{ re: "x", ok: true }]);
  });

  it("drops a frame forged by the page (no key, so no valid mac)", async () => {
    const { win, atMain } = await pair();
    const forged = {
      presend: "bridge",
      to: "main",
      id: "evil",
      body: '{"kind":"sign"}',
      mac: "00".repeat(32),
    };
    win.postMessage(forged, "*");
    await settle();
    expect(atMain).toEqual([]);
  });

  it("drops a replayed frame and a frame whose body was changed", async () => {
    const { win, sent, isolated, atMain } = await pair();
    await isolated.post({ kind: "sign", n: 1 });
    await settle();
    const original = sent[0] as { body: string };
    win.postMessage({ ...original }, "*");
    win.postMessage({ ...original, id: "other", body: '{"kind":"sign","n":2}' }, "*");
    await settle();
    expect(atMain).toEqual([{ kind: "sign", n: 1 }]);
  });
});
