import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { createPublicClient, erc20Abi, http } from "viem";
import { base } from "viem/chains";
import { describe, expect, it } from "vitest";
import { freePort } from "../http/freePort";
import { loggedError } from "./loggedError";

describe("loggedError", () => {
  it("keeps a viem error's short message and its socket's code, never its URL, request body or call", async () => {
    // A real viem read against a port nothing listens on, through a URL carrying a key.
    const rpcUrl = `http://127.0.0.1:${await freePort()}/v2/secret-provider-key`;
    const client = createPublicClient({ chain: base, transport: http(rpcUrl, { retryCount: 0 }) });
    const error = await client
      .readContract({
        address: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913",
        abi: erc20Abi,
        functionName: "balanceOf",
        args: ["0xb3c086D8481e6e0def2898864e9bF7af5E44b06c"],
      })
      .catch((caught: unknown) => caught);
    // What the logs got before: the whole text, many lines of it.
    expect(String(error)).toContain("secret-provider-key");
    expect(String(error)).toMatch(/0x70a08231[\da-f]{64}/);
    const logged = loggedError(error);
    expect(logged).toEqual({
      type: "ContractFunctionExecutionError",
      code: "ECONNREFUSED",
      message: "HTTP request failed.",
    });
  });

  it("keeps a PresendError's code and short message, not its details", () => {
    const error = new ConfigurationError("FACILITATOR_URL: does not answer", {
      details: "connect ECONNREFUSED https://facilitator.example/v1?key=abc",
    });
    expect(loggedError(error)).toEqual({
      type: error.name,
      code: error.code,
      message: "FACILITATOR_URL: does not answer",
    });
  });

  it("cuts any other error to its first line, URLs to their origin and call data to its first bytes", () => {
    const calldata = `0x${"ab".repeat(100)}`;
    const hash = `0x${"cd".repeat(32)}`;
    const error = new Error(
      `Claim failed: ${hash} via https://base.example/v2/KEY?x=1 with ${calldata} — \nRequest body: {"data":"${calldata}"}`,
    );
    const { message } = loggedError(error);
    expect(message).toBe(`Claim failed: ${hash} via https://base.example/... with 0xabababab...`);
    expect(loggedError(new Error(`x ${"y".repeat(1_000)}`)).message).toHaveLength(303);
  });

  it("names a thrown value that is not an Error by its type", () => {
    expect(loggedError("store closed")).toEqual({ type: "string", message: "store closed" });
    expect(
      loggedError(Object.assign(new Error("lock"), { code: "has spaces, not a code" })),
    ).toEqual({ type: "Error", message: "lock" });
  });
});
