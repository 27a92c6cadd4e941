import { readFileSync } from "node:fs";
import { findProtocolContract } from "@presend/shared/registry/protocolContracts";
import { describe, expect, it } from "vitest";
import { recipientKinds } from "../recipientKinds";
import { compilePermit2, permit2ArtifactPath, permit2ArtifactText } from "./compilePermit2";

describe("compilePermit2", () => {
  it("compiles Permit2's published sources to exactly the committed artifact", () => {
    expect(readFileSync(permit2ArtifactPath, "utf8")).toBe(permit2ArtifactText(compilePermit2()));
  });

  it("is the creation code behind Permit2's canonical address (CREATE2 hashes every byte)", () => {
    const permit2 = findProtocolContract("base", recipientKinds.permit2OnBase);
    expect(permit2?.name).toBe("Permit2");
    expect(recipientKinds.permit2OnBase).toBe("0x000000000022D473030F116dDEE9F6B43aC78BA3");
  });
});
