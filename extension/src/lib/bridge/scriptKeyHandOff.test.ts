import { describe, expect, it } from "vitest";
import { handKeyToScript, keyFromScript } from "./scriptKeyHandOff";

describe("scriptKeyHandOff", () => {
  it("hands the key to the script listening on its own element, once", async () => {
    const script = new EventTarget();
    const received = keyFromScript(script);
    handKeyToScript(script, CustomEvent, "ab".repeat(32));
    handKeyToScript(script, CustomEvent, "cd".repeat(32));
    await expect(received).resolves.toBe("ab".repeat(32));
  });

  it("ignores what is not a key, and a key sent to another element", async () => {
    const script = new EventTarget();
    const received = keyFromScript(script);
    handKeyToScript(script, CustomEvent, "not a key");
    handKeyToScript(new EventTarget(), CustomEvent, "ef".repeat(32));
    handKeyToScript(script, CustomEvent, "01".repeat(32));
    await expect(received).resolves.toBe("01".repeat(32));
  });

  it("fails when the bridge did not start as a script", async () => {
    await expect(keyFromScript(null)).rejects.toThrow();
  });
});
