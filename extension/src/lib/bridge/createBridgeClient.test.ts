import { describe, expect, it } from "vitest";
import { createBridgeClient } from "./createBridgeClient";

function setup() {
  const posted: Array<Record<string, unknown>> = [];
  const events: unknown[] = [];
  let n = 0;
  const client = createBridgeClient({
    post: async (body) => {
      posted.push(body as Record<string, unknown>);
    },
    randomId: () => `r${++n}`,
    onReady: () => events.push("ready"),
    onWallet: (info) => events.push(info),
  });
  return { client, posted, events };
}

const info = { available: true, address: null, chainId: 1, name: "W", others: [] };

describe("createBridgeClient", () => {
  it("matches an answer to its request and validates it", async () => {
    const { client, posted } = setup();
    const answer = client.request("sign", { typedData: "{}" }, 1000);
    await Promise.resolve();
    expect(posted).toEqual([{ id: "r1", kind: "sign", typedData: "{}" }]);
    client.receive({ re: "r1", ok: true, data: { signature: "0xabcd" } });
    await expect(answer).resolves.toEqual({ signature: "0xabcd" });
  });

  it("turns a wallet refusal into a MessageError with its code", async () => {
    const { client } = setup();
    const answer = client.request("account", {}, 1000);
    client.receive({ re: "r1", ok: false, error: { code: "rejected", message: "User rejected." } });
    await expect(answer).rejects.toMatchObject({ code: "rejected" });
  });

  it("rejects a malformed answer and ignores answers nobody asked for", async () => {
    const { client } = setup();
    const answer = client.request("sign", { typedData: "{}" }, 1000);
    client.receive({ re: "unknown", ok: true, data: { signature: "0x01" } });
    client.receive({ re: "r1", ok: true, data: { signature: "not hex" } });
    await expect(answer).rejects.toMatchObject({ code: "invalid" });
  });

  it("times out a wallet that never answers as no answer, not as no wallet; a late answer is dropped", async () => {
    const { client } = setup();
    const answer = client.request("sign", { typedData: "{}" }, 10);
    await expect(answer).rejects.toMatchObject({ code: "no_answer" });
    // The hung wallet signs at last: nobody waits for it, nothing goes anywhere.
    expect(() => client.receive({ re: "r1", ok: true, data: { signature: "0x01" } })).not.toThrow();
  });

  it("passes events on", () => {
    const { client, events } = setup();
    client.receive({ event: "ready" });
    client.receive({ event: "wallet", info });
    expect(events).toEqual(["ready", info]);
  });
});
