import { describe, expect, it } from "vitest";
import { multicall3Address } from "../chains/chains";
import { assessDelegate } from "./knownDelegates";
import { isOpenDelegate } from "./openDelegates";

describe("isOpenDelegate", () => {
  it("knows Multicall3 in any case, and no wallet delegate", () => {
    expect(isOpenDelegate(multicall3Address)).toBe(true);
    expect(isOpenDelegate(multicall3Address.toLowerCase())).toBe(true);
    // MetaMask's EIP7702StatelessDeleGator checks who calls it.
    expect(isOpenDelegate("0x63c0c19a282a1B52b07dD5a65b58948A07DAE32B")).toBe(false);
  });

  it("is about a delegate the registry calls a helper, not a wallet", () => {
    expect(assessDelegate(multicall3Address, null).category).toBe("helper");
  });
});
