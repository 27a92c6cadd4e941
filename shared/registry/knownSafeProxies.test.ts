import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { type Hex, keccak256 } from "viem";
import { describe, expect, it } from "vitest";
import { findSafeProxyVersion } from "./knownSafeProxies";

// The proxies' deployed bytecode as @gnosis.pm/safe-contracts publishes it on npm (1.0.0 and 1.1.1:
// build/contracts/Proxy.json; 1.2.0: build/contracts/GnosisSafeProxy.json), copied here because
// those releases install truffle: only their bytes are needed.
const olderProxies: Record<string, Hex> = {
  "1.0.0":
    "0x608060405273ffffffffffffffffffffffffffffffffffffffff600054163660008037600080366000845af43d6000803e6000811415603d573d6000fd5b3d6000f3fea165627a7a72305820b3fbc7c732e0ba4fe8f4e6420895dbae05bfc5c24169a83a550c4886e7cb758c0029",
  "1.1.1":
    "0x608060405273ffffffffffffffffffffffffffffffffffffffff600054167fa619486e0000000000000000000000000000000000000000000000000000000060003514156050578060005260206000f35b3660008037600080366000845af43d6000803e60008114156070573d6000fd5b3d6000f3fea265627a7a72315820d8a00dc4fe6bf675a9d7416fc2d00bb3433362aa8186b750f76c4027269667ff64736f6c634300050e0032",
  "1.2.0":
    "0x608060405273ffffffffffffffffffffffffffffffffffffffff600054167fa619486e0000000000000000000000000000000000000000000000000000000060003514156050578060005260206000f35b3660008037600080366000845af43d6000803e60008114156070573d6000fd5b3d6000f3fea265627a7a7231582035d17d08d3327e4b877a6bbda24b360e39af1274e44a8d8f590146823e1952b064736f6c63430005110032",
};

/** SafeProxy's deployed bytecode from the installed @safe-global/safe-smart-account (1.5.0). */
function safeProxy150(): Hex {
  const require = createRequire(import.meta.url);
  const path = require.resolve(
    "@safe-global/safe-smart-account/build/artifacts/contracts/proxies/SafeProxy.sol/SafeProxy.json",
  );
  return (JSON.parse(readFileSync(path, "utf8")) as { deployedBytecode: Hex }).deployedBytecode;
}

describe("findSafeProxyVersion", () => {
  it("names the Safe release of each published proxy's code, in any case", () => {
    for (const [version, code] of Object.entries(olderProxies)) {
      expect(findSafeProxyVersion(keccak256(code))).toBe(version);
    }
    expect(findSafeProxyVersion(keccak256(safeProxy150()))).toBe("1.5.0");
    // 1.3.0 and 1.4.1 are proven against the code the local world deploys (crossChainSafes.test).
    expect(
      findSafeProxyVersion("0xB89C1B3BDF2CF8827818646BCE9A8F6E372885F8C55E5C07ACBD307CB133B000"),
    ).toBe("1.3.0");
    expect(
      findSafeProxyVersion("0xd7d408ebcd99b2b70be43e20253d6d92a8ea8fab29bd3be7f55b10032331fb4c"),
    ).toBe("1.4.1");
  });

  it("is null for any other code", () => {
    // The empty code's hash: nothing at the address.
    expect(
      findSafeProxyVersion("0xc5d2460186f7233c927e7db2dcc703c0e500b653ca82273b7bfad8045d85a470"),
    ).toBeNull();
  });
});
