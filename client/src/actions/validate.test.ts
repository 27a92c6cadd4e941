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

  it("answers an input too long for a URL itself, with the shared verdict, asking nothing", async () => {
    const asked: string[] = [];
    const config = createPresendConfig({
      url: "http://api.test",
      pinStore: createMemoryPinStore(),
      fetch: async (input) => {
        asked.push(String(input));
        return Response.json(
          { error: { code: "headers_too_large", message: "" } },
          { status: 431 },
        );
      },
    });
    const pasted = "a".repeat(20_000);
    expect(await validate(config, pasted)).toEqual({
      type: "validated",
      result: {
        address: pasted,
        valid: false,
        normalized: null,
        checksum: {
          status: "invalid",
          message: "Not an address: expected 0x followed by 40 hexadecimal characters.",
        },
      },
    });
    // An address padded past the bound is still one, as the server trims it.
    const padded = `${" ".repeat(2_000)}${address.toLowerCase()}\n`;
    expect(await validate(config, padded)).toMatchObject({
      type: "validated",
      result: { valid: true, normalized: address, checksum: { status: "missing" } },
    });
    expect(asked).toEqual([]);
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
