import { describe, expect, it } from "vitest";
import { errorCode, errorOf, isRedirect } from "./errorOf";

describe("errorOf", () => {
  it("reads the error contract and leaves the answer readable", async () => {
    const answer = Response.json(
      { error: { code: "rate_limited", message: "Slow down." } },
      { status: 429 },
    );
    expect(await errorOf(answer)).toEqual({ code: "rate_limited", message: "Slow down." });
    expect(await errorCode(answer)).toBe("rate_limited");
    expect(await answer.json()).toMatchObject({ error: { code: "rate_limited" } });
  });

  it("names the status of an answer that is not the contract", async () => {
    expect(await errorOf(new Response("<html>", { status: 502 }))).toEqual({
      code: "http_502",
      message: "HTTP 502",
    });
    expect(await errorCode(new Response("<html>", { status: 502 }))).toBeNull();
    // A success carries no error code, whatever its body.
    expect(await errorCode(Response.json({ error: { code: "x", message: "y" } }))).toBeNull();
  });

  it("tells a redirect", () => {
    expect(isRedirect(new Response(null, { status: 307 }))).toBe(true);
    expect(isRedirect(new Response(null, { status: 200 }))).toBe(false);
  });
});
