import { gasPriceOracleAddress } from "@presend/shared/chains/chains";
import { concat, keccak256, parseEther, serializeTransaction, toHex } from "viem";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { publishedArtifacts } from "./contracts/publishedArtifacts";
import { type DevnetClient, devnetClient } from "./devnetClient";
import { depositorAccount, devnetL1FeeValues, l1BlockAddress } from "./installOpStackFeeOracle";
import { prepareDevnetChain } from "./prepareDevnetChain";
import { type AnvilInstance, startAnvil } from "./startAnvil";

// Optimism's own GasPriceOracle and L1Block, set up on a local Base as the chain's genesis and
// its sequencer's L1-attributes deposits set them up on the real one.
describe("installOpStackFeeOracle (real anvil, the contracts-bedrock predeploys)", () => {
  let anvil: AnvilInstance;
  let client: DevnetClient;
  const oracle = { address: gasPriceOracleAddress, abi: publishedArtifacts.GasPriceOracle.abi };

  beforeAll(async () => {
    anvil = await startAnvil({ chainId: 8453 });
    client = devnetClient("base", anvil.rpcUrl);
    await prepareDevnetChain(client, "base");
  });

  afterAll(async () => {
    await anvil?.stop();
  });

  it("is Fjord and reads the L1 values the depositor wrote through L1Block", async () => {
    const read = (functionName: string) => client.readContract({ ...oracle, functionName });
    expect(await read("isFjord")).toBe(true);
    expect(await read("l1BaseFee")).toBe(devnetL1FeeValues.l1BaseFee);
    expect(await read("blobBaseFee")).toBe(devnetL1FeeValues.blobBaseFee);
    expect(await read("baseFeeScalar")).toBe(devnetL1FeeValues.baseFeeScalar);
    expect(await read("blobBaseFeeScalar")).toBe(devnetL1FeeValues.blobBaseFeeScalar);
    // The depositor is no longer impersonated: nobody else can send as it.
    await expect(
      client.sendTransaction({ account: depositorAccount, to: l1BlockAddress }),
    ).rejects.toThrow();
  });

  it("prices a transfer's L1 data fee above zero, and a larger transaction higher", async () => {
    const transfer = serializeTransaction({
      type: "eip1559",
      chainId: 8453,
      to: l1BlockAddress,
      value: parseEther("0.1"),
      maxFeePerGas: 1n,
    });
    const fee = (data: `0x${string}`) =>
      client.readContract({ ...oracle, functionName: "getL1Fee", args: [data] }) as Promise<bigint>;
    const small = await fee(transfer);
    // The oracle prices the FastLZ-compressed size (Fjord): a repeated pattern would cost little.
    const incompressible = concat(Array.from({ length: 40 }, (_, i) => keccak256(toHex(i))));
    expect(small).toBeGreaterThan(0n);
    const large = await fee(
      serializeTransaction({
        chainId: 8453,
        to: l1BlockAddress,
        data: incompressible,
        maxFeePerGas: 1n,
      }),
    );
    expect(large).toBeGreaterThan(small);
  });
});
