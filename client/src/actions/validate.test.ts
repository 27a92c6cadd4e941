import { describe, expect, it } from "vitest";
import { createPresendConfig } from "../createPresendConfig";
import { createMemoryPinStore } from "../PinStore";
import { validate } from "./validate";

const address = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const answering = (answer: () => Response | Promise<Response>) =>
  createPresendConfig({
    url: "http://api.test",
    pinStore: createMemoryPinStore(),
    fetch: async () => answer(),
  });

describe("validate", () => {
  it("reads the server's answer", async () => {
    const result = {
      address,
      valid: true,
      normalized: address,
      checksum: { status: "valid", message: "Address checksum is correct." },
    };
    expect(
      await validate(
        answering(() => Response.json(result)),
        address,
      ),
    ).toEqual({
      type: "validated",
      result,
    });
  });

  it("passes the error contract's code on", async () => {
    const config = answering(() =>
      Response.json(
        { error: { code: "invalid_address", message: "Not an address." } },
        { status: 400 },
      ),
    );
    expect(await validate(config, "0x12")).toEqual({
      type: "failed",
      status: 400,
      code: "invalid_address",
      message: "Not an address.",
    });
  });

  it("says so when the server is unreachable or its answer malformed", async () => {
    const unreachable = answering(() => {
      throw new TypeError("fetch failed");
    });
    expect(await validate(unreachable, address)).toMatchObject({
      type: "failed",
      status: null,
      code: "unreachable",
    });
    expect(
      await validate(
        answering(() => Response.json({ valid: "yes" })),
        address,
      ),
    ).toMatchObject({
      type: "failed",
      status: 200,
      code: "malformed_answer",
    });
  });
});
