import {
  getProxyFactoryDeployment,
  getSafeL2SingletonDeployment,
  getSafeSingletonDeployment,
} from "@safe-global/safe-deployments";
import { PERMIT2_ADDRESS } from "@uniswap/permit2-sdk";
import { SWAP_ROUTER_02_ADDRESSES, V2_ROUTER_ADDRESSES, WETH9 } from "@uniswap/sdk-core";
import { getAddress } from "viem";
import { describe, expect, it } from "vitest";
import { chains } from "../chains/chains";
import {
  findProtocolContract,
  findProtocolContractsAt,
  protocolContracts,
} from "./protocolContracts";

const chainIdOf = (name: keyof typeof chains) => chains[name].id;

/** The address each entry's source package publishes for `chain`, for the entries written out. */
function publishedAddress(name: string, chain: keyof typeof chains): string[] {
  const id = chainIdOf(chain);
  if (name === "Permit2") return [PERMIT2_ADDRESS];
  if (name === "Uniswap V2 Router02") return [V2_ROUTER_ADDRESSES[id] ?? ""];
  if (name === "Uniswap SwapRouter02") return [SWAP_ROUTER_02_ADDRESSES(id)];
  if (name === "WETH" || name === "WMATIC") return [WETH9[id]?.address ?? ""];
  const safe = name.startsWith("SafeL2")
    ? getSafeL2SingletonDeployment
    : name.includes("factory")
      ? getProxyFactoryDeployment
      : name.startsWith("Safe")
        ? getSafeSingletonDeployment
        : null;
  if (safe) {
    const version = name.match(/\d+\.\d+\.\d+/)?.[0];
    const deployment = safe({ version, network: String(id) });
    if (!deployment) return [];
    const published = deployment.networkAddresses[String(id)];
    if (published === undefined) return [];
    return Array.isArray(published) ? published : [published];
  }
  return [];
}

describe("protocolContracts", () => {
  it("matches every written-out address with its authors' npm package, chain by chain", () => {
    const checked: string[] = [];
    for (const entry of protocolContracts) {
      if (entry.source.startsWith("npm viem")) continue; // read from viem, not written out
      for (const chain of entry.chains) {
        const published = publishedAddress(entry.name, chain).map((address) =>
          address.toLowerCase(),
        );
        expect(published, `${entry.name} on ${chain}`).toContain(entry.address.toLowerCase());
        checked.push(`${entry.name}@${chain}`);
      }
    }
    // Permit2, V2 routers, SwapRouter02, the three Safe 1.3.0 and three 1.4.1 contracts and wrapped native on all five chains.
    expect(checked).toHaveLength(5 + 5 + 5 + 30 + 5);
  });

  it("finds an entry by chain and address in any case, and only on its chains", () => {
    expect(findProtocolContract("base", PERMIT2_ADDRESS.toLowerCase())?.name).toBe("Permit2");
    expect(
      findProtocolContract("ethereum", "0x99C9fc46f92E8a1c0deC1b1747d010903E884bE1"),
    ).toMatchObject({ name: "OP Mainnet L1StandardBridge", outcome: "elsewhere" });
    expect(
      findProtocolContract("base", "0x99C9fc46f92E8a1c0deC1b1747d010903E884bE1"),
    ).toBeUndefined();
    expect(
      findProtocolContract("polygon", "0x4200000000000000000000000000000000000006"),
    ).toBeUndefined();
    expect(findProtocolContract("base", "0x0000000071727De22E5E9d8BAf0edAc6f37da032")?.name).toBe(
      "ERC-4337 EntryPoint v0.7",
    );
  });

  it("says for every entry what a native send and a token transfer do, with a source", () => {
    for (const entry of protocolContracts) {
      expect(getAddress(entry.address)).toBeTruthy();
      expect(entry.nativeSend).toMatch(/\.$/);
      expect(entry.tokenSend).toMatch(/\.$/);
      expect(entry.source).toMatch(/^npm /);
    }
  });

  it("finds the entries at an address on any chain, with the chains each names", () => {
    const [bridge] = findProtocolContractsAt("0x99c9fc46f92e8a1c0dec1b1747d010903e884be1");
    expect(bridge).toMatchObject({ name: "OP Mainnet L1StandardBridge", chains: ["ethereum"] });
    expect(findProtocolContractsAt("0x1111111111111111111111111111111111111111")).toEqual([]);
  });
});
