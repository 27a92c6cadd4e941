import { describe, expect, it } from "vitest";
import { offerBridgeKey, receiveBridgeKey } from "./bridgeKeyExchange";

class DetailEvent extends Event {
  readonly detail: string | undefined;
  constructor(type: string, init?: { detail?: string }) {
    super(type);
    this.detail = init?.detail;
  }
}

const keyHex = "ab".repeat(32);

describe("bridge key exchange", () => {
  it("works when the bridge starts first", async () => {
    const win = new EventTarget() as unknown as Window;
    const received = receiveBridgeKey(win, DetailEvent);
    offerBridgeKey(win, DetailEvent, keyHex);
    await expect(received).resolves.toBe(keyHex);
  });

  it("works when the isolated script starts first", async () => {
    const win = new EventTarget() as unknown as Window;
    offerBridgeKey(win, DetailEvent, keyHex);
    await expect(receiveBridgeKey(win, DetailEvent)).resolves.toBe(keyHex);
  });

  it("does not hand the key to a later hello (a page script asking for it)", () => {
    const win = new EventTarget() as unknown as Window;
    const offered = offerBridgeKey(win, DetailEvent, keyHex);
    offered.close();
    const leaked: string[] = [];
    win.addEventListener("presend:bridge-key", (e) =>
      leaked.push(String((e as DetailEvent).detail)),
    );
    win.dispatchEvent(new DetailEvent("presend:bridge-hello"));
    expect(leaked).toEqual([]);
  });

  it("answers one hello at most", () => {
    const win = new EventTarget() as unknown as Window;
    offerBridgeKey(win, DetailEvent, keyHex);
    const leaked: string[] = [];
    win.addEventListener("presend:bridge-key", (e) =>
      leaked.push(String((e as DetailEvent).detail)),
    );
    win.dispatchEvent(new DetailEvent("presend:bridge-hello"));
    win.dispatchEvent(new DetailEvent("presend:bridge-hello"));
    expect(leaked).toEqual([keyHex]);
  });
});
