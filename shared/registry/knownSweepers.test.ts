import { describe, expect, it } from "vitest";
import { multicall3Address } from "../chains/chains";
import { findKnownSweeper } from "./knownSweepers";

describe("findKnownSweeper", () => {
  it("names the sweepers of the registry by address, in any case", () => {
    // BundleBear labels these "Crime".
    expect(findKnownSweeper("0x47c74dfd54b2bf7362e5976d748aad24c4f1f36d")).toEqual({
      label: "Crime",
    });
    expect(findKnownSweeper("0x95AD3B610DA3F60E2E169DC778E29B0C0CFD673E")).toEqual({
      label: "Crime",
    });
  });

  it("is not about wallet delegates, helpers or unknown addresses", () => {
    expect(findKnownSweeper("0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B")).toBeUndefined();
    expect(findKnownSweeper(multicall3Address)).toBeUndefined();
    expect(findKnownSweeper(`0x${"12".repeat(20)}`)).toBeUndefined();
  });
});
