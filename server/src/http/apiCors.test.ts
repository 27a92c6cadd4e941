import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { apiCors } from "./apiCors";

const app = new Hono();
app.use("*", apiCors());
app.get("/free", (c) => c.json({ ok: true }));
app.post("/paid", () => new Response("{}", { status: 402, headers: { "PAYMENT-REQUIRED": "x" } }));
// As the payment ledger answers: the route's answer dropped and a new one made in its place.
app.post(
  "/rebuilt",
  async (c, next) => {
    await next();
    c.res = undefined;
    c.res = c.json({ error: { code: "facilitator_unavailable" } }, 503);
  },
  (c) => c.json({}, 402),
);

describe("apiCors", () => {
  it("lets any origin read GET answers and their headers", async () => {
    const response = await app.request("/free", { headers: { origin: "https://dapp.example" } });
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-expose-headers")).toContain("PAYMENT-RESPONSE");
    // A rate-limited page reads when to come back.
    const exposed = response.headers.get("access-control-expose-headers")?.split(",");
    expect(exposed).toEqual(
      expect.arrayContaining(["Retry-After", "RateLimit", "RateLimit-Policy"]),
    );
  });

  it("exposes PAYMENT-REQUIRED on a raw 402 from a POST", async () => {
    const response = await app.request("/paid", {
      method: "POST",
      headers: { origin: "https://dapp.example" },
    });
    expect(response.status).toBe(402);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-expose-headers")).toContain("PAYMENT-REQUIRED");
    // After an unknown settlement outcome, where the report will be.
    expect(response.headers.get("access-control-expose-headers")).toContain("PRESEND-RECEIPT");
  });

  it("lets any origin read a POST answer that middleware rebuilt after the route answered", async () => {
    const response = await app.request("/rebuilt", {
      method: "POST",
      headers: { origin: "https://dapp.example" },
    });
    expect(response.status).toBe(503);
    expect(response.headers.get("access-control-allow-origin")).toBe("*");
    expect(response.headers.get("access-control-expose-headers")).toContain("PRESEND-RECEIPT");
  });

  it("answers preflights for the payment headers", async () => {
    const response = await app.request("/paid", {
      method: "OPTIONS",
      headers: {
        origin: "https://dapp.example",
        "access-control-request-method": "POST",
        "access-control-request-headers": "content-type,payment-signature,x-payment",
      },
    });
    expect(response.status).toBe(204);
    const allowed = response.headers.get("access-control-allow-headers") ?? "";
    for (const header of ["PAYMENT-SIGNATURE", "X-Payment", "Content-Type"]) {
      expect(allowed).toContain(header);
    }
  });
});
