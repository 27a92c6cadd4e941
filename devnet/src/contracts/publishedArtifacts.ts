import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
import { EIP7702StatelessDeleGator as metaMaskDelegatorAbi } from "@metamask/delegation-abis";
import { EIP7702StatelessDeleGator as metaMaskDelegatorBytecode } from "@metamask/delegation-abis/bytecode";
import type { Abi, Hex } from "viem";
import { z } from "zod";

const require = createRequire(import.meta.url);

const PublishedArtifactSchema = z.object({
  contractName: z.string(),
  abi: z.array(z.unknown()).transform((abi) => abi as Abi),
  bytecode: z.string().regex(/^0x[0-9a-fA-F]*$/) as unknown as z.ZodType<Hex>,
  deployedBytecode: z.string().regex(/^0x[0-9a-fA-F]*$/) as unknown as z.ZodType<Hex>,
});
export type PublishedArtifact = z.infer<typeof PublishedArtifactSchema>;

function load(file: string): PublishedArtifact {
  return PublishedArtifactSchema.parse(JSON.parse(readFileSync(require.resolve(file), "utf8")));
}

// Foundry's artifact layout, as Optimism publishes it: the code sits under `object`.
const HexCodeSchema = z.object({
  object: z.string().regex(/^0x[0-9a-fA-F]*$/) as unknown as z.ZodType<Hex>,
});
const ForgeArtifactSchema = z.object({
  abi: z.array(z.unknown()).transform((abi) => abi as Abi),
  bytecode: HexCodeSchema,
  deployedBytecode: HexCodeSchema,
});

function loadForge(file: string, contractName: string): PublishedArtifact {
  const artifact = ForgeArtifactSchema.parse(
    JSON.parse(readFileSync(require.resolve(file), "utf8")),
  );
  return {
    contractName,
    abi: artifact.abi,
    bytecode: artifact.bytecode.object,
    deployedBytecode: artifact.deployedBytecode.object,
  };
}

const safe = "@safe-global/safe-contracts/build/artifacts/contracts";
// Waffle's artifact layout, as Uniswap V2 publishes it: hex without 0x, runtime code under evm.
const WaffleArtifactSchema = z.object({
  abi: z.array(z.unknown()).transform((abi) => abi as Abi),
  bytecode: z.string().regex(/^[0-9a-fA-F]+$/),
  evm: z.object({ deployedBytecode: z.object({ object: z.string().regex(/^[0-9a-fA-F]+$/) }) }),
});

function loadWaffle(file: string, contractName: string): PublishedArtifact {
  const artifact = WaffleArtifactSchema.parse(
    JSON.parse(readFileSync(require.resolve(file), "utf8")),
  );
  return {
    contractName,
    abi: artifact.abi,
    bytecode: `0x${artifact.bytecode}`,
    deployedBytecode: `0x${artifact.evm.deployedBytecode.object}`,
  };
}

const safe130 = "@gnosis.pm/safe-contracts/build/artifacts/contracts";
const aa = "@account-abstraction/contracts/artifacts";
const optimism = "@eth-optimism/contracts-bedrock/forge-artifacts";

/**
 * Contracts exactly as their authors published them on npm (Safe 1.4.1 from
 * `@safe-global/safe-contracts`, Safe 1.3.0 L2 from `@gnosis.pm/safe-contracts`, the ERC-4337
 * EntryPoints v0.8, v0.7 and v0.6 from `@account-abstraction/contracts` 0.8.0, 0.7.0 and 0.6.0 (with
 * the v0.7 SimpleAccount and its factory, and the v0.6 VerifyingPaymaster), Optimism's
 * L1StandardBridge, Proxy and its GasPriceOracle and L1Block predeploys from
 * `@eth-optimism/contracts-bedrock` 0.17.3, UniswapV2Factory and
 * UniswapV2Pair from `@uniswap/v2-core` 1.0.1, WETH9 from `@uniswap/v2-periphery` 1.1.0-beta.0,
 * MetaMask's EIP7702StatelessDeleGator from `@metamask/delegation-abis` 2.0.0): the local world
 * deploys these bytes, so presend is tried on the real code, not on lookalikes. Permit2 is published
 * as sources only (in `@uniswap/v4-periphery` 1.0.3): Permit2.json is those sources compiled to
 * the exact creation code behind its canonical address (compilePermit2.ts, checked by its test).
 * @example await client.deployContract({ abi: publishedArtifacts.Safe.abi, bytecode: publishedArtifacts.Safe.bytecode });
 */
export const publishedArtifacts = {
  Safe: load(`${safe}/Safe.sol/Safe.json`),
  SafeProxy: load(`${safe}/proxies/SafeProxy.sol/SafeProxy.json`),
  SafeProxyFactory: load(`${safe}/proxies/SafeProxyFactory.sol/SafeProxyFactory.json`),
  GnosisSafeL2: load(`${safe130}/GnosisSafeL2.sol/GnosisSafeL2.json`),
  GnosisSafeProxy: load(`${safe130}/proxies/GnosisSafeProxy.sol/GnosisSafeProxy.json`),
  GnosisSafeProxyFactory: load(
    `${safe130}/proxies/GnosisSafeProxyFactory.sol/GnosisSafeProxyFactory.json`,
  ),
  EntryPoint: load(`${aa}/EntryPoint.json`),
  EntryPointV07: load("account-abstraction-contracts-v07/artifacts/EntryPoint.json"),
  EntryPointV06: load("account-abstraction-contracts-v06/artifacts/EntryPoint.json"),
  VerifyingPaymasterV06: load(
    "account-abstraction-contracts-v06/artifacts/VerifyingPaymaster.json",
  ),
  SimpleAccountV07: load("account-abstraction-contracts-v07/artifacts/SimpleAccount.json"),
  SimpleAccountFactoryV07: load(
    "account-abstraction-contracts-v07/artifacts/SimpleAccountFactory.json",
  ),
  SimpleAccount: load(`${aa}/SimpleAccount.json`),
  SimpleAccountFactory: load(`${aa}/SimpleAccountFactory.json`),
  Simple7702Account: load(`${aa}/Simple7702Account.json`),
  L1StandardBridge: loadForge(
    `${optimism}/L1StandardBridge.sol/L1StandardBridge.json`,
    "L1StandardBridge",
  ),
  OptimismProxy: loadForge(`${optimism}/Proxy.sol/Proxy.json`, "Proxy"),
  GasPriceOracle: loadForge(`${optimism}/GasPriceOracle.sol/GasPriceOracle.json`, "GasPriceOracle"),
  L1Block: loadForge(`${optimism}/L1Block.sol/L1Block.json`, "L1Block"),
  UniswapV2Factory: loadWaffle("@uniswap/v2-core/build/UniswapV2Factory.json", "UniswapV2Factory"),
  UniswapV2Pair: loadWaffle("@uniswap/v2-core/build/UniswapV2Pair.json", "UniswapV2Pair"),
  WETH9: loadWaffle("@uniswap/v2-periphery/build/WETH9.json", "WETH9"),
  Permit2: load("./Permit2.json"),
  // MetaMask publishes ABI and creation code as modules; the runtime code comes from a deployment.
  EIP7702StatelessDeleGator: {
    contractName: "EIP7702StatelessDeleGator",
    abi: metaMaskDelegatorAbi as Abi,
    bytecode: metaMaskDelegatorBytecode as Hex,
    deployedBytecode: "0x" as Hex,
  },
};
