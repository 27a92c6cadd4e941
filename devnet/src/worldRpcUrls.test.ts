import { chainNames } from "@presend/shared/chains/chains";
import { describe, expect, it } from "vitest";
import type { World, WorldChain } from "./startWorld";
import { worldRpcUrls } from "./worldRpcUrls";

describe("worldRpcUrls", () => {
  it("gives every chain its own one URL", () => {
    const chains = Object.fromEntries(
      chainNames.map((name, index) => [
        name,
        { rpcUrl: `http://127.0.0.1:${8545 + index}` } as WorldChain,
      ]),
    ) as World["chains"];
    const urls = worldRpcUrls({ chains });
    expect(Object.keys(urls)).toEqual([...chainNames]);
    chainNames.forEach((name, index) => {
      expect(urls[name]).toEqual([`http://127.0.0.1:${8545 + index}`]);
    });
  });
});
