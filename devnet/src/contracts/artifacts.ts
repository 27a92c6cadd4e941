import type { Abi, Hex } from "viem";
import { z } from "zod";
import demoBatchExecutor from "./DemoBatchExecutor.json" with { type: "json" };
import demoCoinbaseSmartWallet from "./DemoCoinbaseSmartWallet.json" with { type: "json" };
import demoCollection from "./DemoCollection.json" with { type: "json" };
import demoDepositForwarder from "./DemoDepositForwarder.json" with { type: "json" };
import demoEoaOnlyVault from "./DemoEoaOnlyVault.json" with { type: "json" };
import demoGuestbook from "./DemoGuestbook.json" with { type: "json" };
import demoModularAccount from "./DemoModularAccount.json" with { type: "json" };
import demoMultisig from "./DemoMultisig.json" with { type: "json" };
import demoMultiToken from "./DemoMultiToken.json" with { type: "json" };
import demoOpStackMessenger from "./DemoOpStackMessenger.json" with { type: "json" };
import demoOriginGate from "./DemoOriginGate.json" with { type: "json" };
import demoProxy from "./DemoProxy.json" with { type: "json" };
import demoSafeLookalike from "./DemoSafeLookalike.json" with { type: "json" };
import demoSweeper from "./DemoSweeper.json" with { type: "json" };
import demoToken from "./DemoToken.json" with { type: "json" };
import demoUpgradeableToken from "./DemoUpgradeableToken.json" with { type: "json" };
import multicall3 from "./Multicall3.json" with { type: "json" };
import presendBatchSettlement from "./PresendBatchSettlement.json" with { type: "json" };
import presendErc3009DepositCollector from "./PresendErc3009DepositCollector.json" with {
  type: "json",
};
import presendStablecoin from "./PresendStablecoin.json" with { type: "json" };

const HexSchema = z.string().regex(/^0x[0-9a-f]*$/) as unknown as z.ZodType<Hex>;
const ArtifactSchema = z.object({
  contractName: z.string(),
  abi: z.array(z.unknown()).transform((abi) => abi as Abi),
  bytecode: HexSchema,
  deployedBytecode: HexSchema,
});
export type Artifact = z.infer<typeof ArtifactSchema>;

/**
 * The committed compiler output of the local world's contracts (regenerate with
 * `npm run compile:contracts -w devnet`; compile.test.ts keeps them in sync).
 * @example await client.setCode({ address, bytecode: artifacts.Multicall3.deployedBytecode });
 */
export const artifacts = {
  PresendStablecoin: ArtifactSchema.parse(presendStablecoin),
  PresendBatchSettlement: ArtifactSchema.parse(presendBatchSettlement),
  PresendErc3009DepositCollector: ArtifactSchema.parse(presendErc3009DepositCollector),
  Multicall3: ArtifactSchema.parse(multicall3),
  DemoMultisig: ArtifactSchema.parse(demoMultisig),
  DemoGuestbook: ArtifactSchema.parse(demoGuestbook),
  DemoBatchExecutor: ArtifactSchema.parse(demoBatchExecutor),
  DemoSweeper: ArtifactSchema.parse(demoSweeper),
  DemoToken: ArtifactSchema.parse(demoToken),
  DemoCollection: ArtifactSchema.parse(demoCollection),
  DemoEoaOnlyVault: ArtifactSchema.parse(demoEoaOnlyVault),
  DemoOriginGate: ArtifactSchema.parse(demoOriginGate),
  DemoDepositForwarder: ArtifactSchema.parse(demoDepositForwarder),
  DemoModularAccount: ArtifactSchema.parse(demoModularAccount),
  DemoCoinbaseSmartWallet: ArtifactSchema.parse(demoCoinbaseSmartWallet),
  DemoOpStackMessenger: ArtifactSchema.parse(demoOpStackMessenger),
  DemoMultiToken: ArtifactSchema.parse(demoMultiToken),
  DemoUpgradeableToken: ArtifactSchema.parse(demoUpgradeableToken),
  DemoProxy: ArtifactSchema.parse(demoProxy),
  DemoSafeLookalike: ArtifactSchema.parse(demoSafeLookalike),
};
