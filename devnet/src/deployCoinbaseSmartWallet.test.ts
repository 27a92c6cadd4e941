import { toCoinbaseSmartAccount } from "viem/account-abstraction";
import { privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { deployCoinbaseSmartWallet } from "./deployCoinbaseSmartWallet";
import { devnetClient } from "./devnetClient";
import { devnetPrivateKey } from "./devnetPrivateKey";
import { sharedWorld } from "./testing/sharedWorld";

describe("deployCoinbaseSmartWallet (on the shared world's Base)", () => {
  it("deploys an account whose ERC-1271 check takes its owner's wrapped signature, and no one else's", async () => {
    const base = devnetClient("base", sharedWorld().chains.base.rpcUrl);
    const owner = privateKeyToAccount(devnetPrivateKey("deploy-coinbase-smart-wallet-test-owner"));
    const stranger = privateKeyToAccount(devnetPrivateKey("deploy-coinbase-smart-wallet-stranger"));
    const address = await deployCoinbaseSmartWallet(base, {
      deployer: privateKeyToAccount(devnetPrivateKey("deploy-coinbase-smart-wallet-deployer")),
      owner: owner.address,
    });
    expect(await base.getCode({ address })).toMatch(/^0x[0-9a-f]{100,}$/);
    const signedBy = (signer: typeof owner) =>
      toCoinbaseSmartAccount({ client: base, owners: [signer], address, version: "1" });
    const message = "presend smart account";
    for (const [signer, valid] of [
      [owner, true],
      [stranger, false],
    ] as const) {
      const signature = await (await signedBy(signer)).signMessage({ message });
      // Deployed: a plain ERC-1271 signature (no ERC-6492 wrapper), longer than an ECDSA one.
      expect(signature.length).toBeGreaterThan(132);
      expect(await base.verifyMessage({ address, message, signature })).toBe(valid);
    }
  });
});
