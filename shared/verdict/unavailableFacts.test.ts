import { describe, expect, it } from "vitest";
import { ChainFactsSchema } from "../api/report";
import { chainNames } from "../chains/chains";
import { unavailableFacts } from "./unavailableFacts";

describe("unavailableFacts", () => {
  it.each(chainNames)(
    "is a schema-valid unavailable record for %s with every fact null",
    (name) => {
      const facts = unavailableFacts(name, "HTTP 503");
      expect(ChainFactsSchema.parse(facts)).toEqual(facts);
      expect(facts).toMatchObject({ name, status: "unavailable", error: "HTTP 503", kind: null });
      expect(facts.usdcBridged === undefined).toBe(name === "ethereum");
    },
  );
});
