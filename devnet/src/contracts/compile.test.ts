import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { artifacts } from "./artifacts";
import { artifactPath, artifactText, compileContracts, contractNames } from "./compile";

describe("compileContracts", () => {
  const compiled = compileContracts();

  it.each(contractNames)("solc compiles %s to exactly the committed artifact", (name) => {
    expect(readFileSync(artifactPath(name), "utf8")).toBe(artifactText(compiled[name]));
  });

  it("loads every committed artifact with runtime code", () => {
    for (const name of contractNames) {
      expect(artifacts[name].contractName).toBe(name);
      expect(artifacts[name].deployedBytecode.length).toBeGreaterThan(2);
    }
  });

  it("exposes the USDC surface the x402 facilitator and the installers call", () => {
    const { abi } = artifacts.PresendStablecoin;
    const names = abi.flatMap((item) => ("name" in item && item.name ? [item.name] : []));
    for (const required of [
      "transferWithAuthorization",
      "receiveWithAuthorization",
      "cancelAuthorization",
      "authorizationState",
      "DOMAIN_SEPARATOR",
      "initialize",
      "mint",
    ]) {
      expect(names).toContain(required);
    }
  });
});
