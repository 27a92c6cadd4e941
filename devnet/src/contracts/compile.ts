import { readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { InputError } from "@presend/shared/errors/InputError";
import solc from "solc";
import { SolcOutputSchema } from "./solcOutputSchema";

const contractsDir = dirname(fileURLToPath(import.meta.url));
const require = createRequire(import.meta.url);

/** solc asks for imported files by path; "@openzeppelin/contracts/..." comes from the npm package. */
function findImports(path: string): { contents: string } | { error: string } {
  try {
    return { contents: readFileSync(require.resolve(path), "utf8") };
  } catch {
    return { error: `not found: ${path}` };
  }
}

/** The Solidity sources of the local world; each file holds one contract of the same name. */
export const contractNames = [
  "PresendStablecoin",
  "PresendBatchSettlement",
  "PresendErc3009DepositCollector",
  "Multicall3",
  "DemoMultisig",
  "DemoGuestbook",
  "DemoBatchExecutor",
  "DemoSweeper",
  "DemoToken",
  "DemoCollection",
  "DemoEoaOnlyVault",
  "DemoOriginGate",
  "DemoDepositForwarder",
  "DemoModularAccount",
  "DemoCoinbaseSmartWallet",
  "DemoOpStackMessenger",
  "DemoMultiToken",
  "DemoUpgradeableToken",
  "DemoProxy",
  "DemoSafeLookalike",
] as const;
export type ContractName = (typeof contractNames)[number];

/** Contracts installed with anvil_setCode: their constructors never run, so immutables are banned. */
const installedByCode: readonly ContractName[] = [
  "PresendStablecoin",
  "PresendBatchSettlement",
  "PresendErc3009DepositCollector",
  "Multicall3",
];

export type CompiledContract = {
  contractName: ContractName;
  compiler: string;
  abi: unknown[];
  bytecode: `0x${string}`;
  deployedBytecode: `0x${string}`;
};

/**
 * Compiles every contract in this folder with the npm `solc` compiler and fixed settings, so the
 * output is reproducible byte for byte (no metadata hash, which would embed file paths).
 * @example const { PresendStablecoin } = compileContracts();
 */
export function compileContracts(): Record<ContractName, CompiledContract> {
  const sources = Object.fromEntries(
    contractNames.map((name) => [
      `${name}.sol`,
      { content: readFileSync(join(contractsDir, `${name}.sol`), "utf8") },
    ]),
  );
  const input = {
    language: "Solidity",
    sources,
    settings: {
      // cancun: the newest EVM version every one of the five mainnets and anvil accept.
      evmVersion: "cancun",
      optimizer: { enabled: true, runs: 200 },
      metadata: { bytecodeHash: "none", appendCBOR: false },
      outputSelection: {
        "*": {
          "*": [
            "abi",
            "evm.bytecode.object",
            "evm.deployedBytecode.object",
            "evm.deployedBytecode.immutableReferences",
          ],
        },
      },
    },
  };
  const output = SolcOutputSchema.parse(
    JSON.parse(solc.compile(JSON.stringify(input), { import: findImports })),
  );
  const errors = (output.errors ?? []).filter((error) => error.severity === "error");
  if (errors.length > 0) {
    throw new InputError(
      `solc failed:\n${errors.map((error) => error.formattedMessage).join("\n")}`,
    );
  }
  const compiler = `solc ${solc.version()}`;
  const compiled = contractNames.map((name): [ContractName, CompiledContract] => {
    const contract = output.contracts?.[`${name}.sol`]?.[name];
    if (!contract) throw new InputError(`solc produced no output for ${name}`);
    const immutables = Object.keys(contract.evm.deployedBytecode.immutableReferences ?? {});
    if (installedByCode.includes(name) && immutables.length > 0) {
      throw new InputError(`${name} is installed with anvil_setCode and must not use immutables`);
    }
    return [
      name,
      {
        contractName: name,
        compiler,
        abi: contract.abi,
        bytecode: `0x${contract.evm.bytecode.object}`,
        deployedBytecode: `0x${contract.evm.deployedBytecode.object}`,
      },
    ];
  });
  return Object.fromEntries(compiled) as Record<ContractName, CompiledContract>;
}

/** Path of the committed artifact of one contract. */
export function artifactPath(name: ContractName): string {
  return join(contractsDir, `${name}.json`);
}

/** The exact text written for an artifact (the compile test compares against it). */
export function artifactText(contract: CompiledContract): string {
  return `${JSON.stringify(contract, null, 2)}\n`;
}

// `npm run compile:contracts -w devnet` rewrites the committed artifacts.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  for (const contract of Object.values(compileContracts())) {
    writeFileSync(artifactPath(contract.contractName), artifactText(contract));
    console.log(`wrote ${artifactPath(contract.contractName)}`);
  }
}
