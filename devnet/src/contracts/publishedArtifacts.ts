import { readFileSync } from "node:fs";
import { createRequire } from "node:module";
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

const safe = "@safe-global/safe-contracts/build/artifacts/contracts";
const aa = "@account-abstraction/contracts/artifacts";

/**
 * Wallet contracts exactly as their authors published them on npm (Safe 1.4.1 from
 * `@safe-global/safe-contracts`, ERC-4337 v0.8 from `@account-abstraction/contracts`): the demo
 * world deploys these bytes, so presend is tried on the real code, not on lookalikes.
 * @example await client.deployContract({ abi: publishedArtifacts.Safe.abi, bytecode: publishedArtifacts.Safe.bytecode });
 */
export const publishedArtifacts = {
  Safe: load(`${safe}/Safe.sol/Safe.json`),
  SafeProxy: load(`${safe}/proxies/SafeProxy.sol/SafeProxy.json`),
  SafeProxyFactory: load(`${safe}/proxies/SafeProxyFactory.sol/SafeProxyFactory.json`),
  EntryPoint: load(`${aa}/EntryPoint.json`),
  SimpleAccount: load(`${aa}/SimpleAccount.json`),
  SimpleAccountFactory: load(`${aa}/SimpleAccountFactory.json`),
  Simple7702Account: load(`${aa}/Simple7702Account.json`),
};
