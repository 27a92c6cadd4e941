import { gasPriceOracleAddress } from "@presend/shared/chains/chains";
import {
  type Address,
  encodePacked,
  keccak256,
  parseAbi,
  parseEther,
  parseGwei,
  toHex,
} from "viem";
import { publishedArtifacts } from "./contracts/publishedArtifacts";
import type { DevnetClient } from "./devnetClient";

/** The L1Block predeploy: the L1 values the GasPriceOracle prices the L1 data fee from. */
export const l1BlockAddress: Address = "0x4200000000000000000000000000000000000015";
/** The system account the sequencer's L1-attributes deposit comes from; the only caller allowed. */
export const depositorAccount: Address = "0xDeaDDEaDDeAdDeAdDEAdDEaddeAddEAdDEAd0001";

/**
 * The L1 values the local OP-stack chains start with: Base's fee scalars and an L1 of 10 gwei base
 * fee and 1 gwei blob base fee, so every send has an L1 data fee to price.
 */
export const devnetL1FeeValues = {
  baseFeeScalar: 2_269,
  blobBaseFeeScalar: 1_055_762,
  l1BaseFee: parseGwei("10"),
  blobBaseFee: parseGwei("1"),
} as const;

const gasPriceOracleUpgradesAbi = parseAbi(["function setEcotone()", "function setFjord()"]);

/**
 * Makes a local chain price the L1 data fee as an OP-stack chain does: the L1Block and
 * GasPriceOracle predeploys of `@eth-optimism/contracts-bedrock` at their addresses (as a genesis
 * places them), then, from the depositor account, the L1 values through L1Block's Ecotone setter
 * and the oracle's Ecotone and Fjord activations (its getL1Fee then prices as Base's does today).
 * @example await installOpStackFeeOracle(devnetClient("base", rpcUrl));
 */
export async function installOpStackFeeOracle(
  client: DevnetClient,
  values: typeof devnetL1FeeValues = devnetL1FeeValues,
): Promise<void> {
  // Independent of each other: one round trip's wait instead of four in a row.
  await Promise.all([
    client.setCode({
      address: l1BlockAddress,
      bytecode: publishedArtifacts.L1Block.deployedBytecode,
    }),
    client.setCode({
      address: gasPriceOracleAddress,
      bytecode: publishedArtifacts.GasPriceOracle.deployedBytecode,
    }),
    client.setBalance({ address: depositorAccount, value: parseEther("1") }),
    client.impersonateAccount({ address: depositorAccount }),
  ]);
  // setL1BlockValuesEcotone() reads its arguments packed from calldata, as the deposit carries them.
  const setL1Values = encodePacked(
    [
      "bytes4",
      "uint32",
      "uint32",
      "uint64",
      "uint64",
      "uint64",
      "uint256",
      "uint256",
      "bytes32",
      "bytes32",
    ],
    [
      "0x440a5e20",
      values.baseFeeScalar,
      values.blobBaseFeeScalar,
      0n,
      1_700_000_000n,
      20_000_000n,
      values.l1BaseFee,
      values.blobBaseFee,
      keccak256(toHex("presend devnet L1 block")),
      `0x${"00".repeat(12)}${"5050".repeat(10)}`,
    ],
  );
  const account = depositorAccount;
  await client.confirm(client.sendTransaction({ account, to: l1BlockAddress, data: setL1Values }));
  for (const functionName of ["setEcotone", "setFjord"] as const) {
    await client.confirm(
      client.writeContract({
        account,
        address: gasPriceOracleAddress,
        abi: gasPriceOracleUpgradesAbi,
        functionName,
      }),
    );
  }
  await client.stopImpersonatingAccount({ address: depositorAccount });
}
