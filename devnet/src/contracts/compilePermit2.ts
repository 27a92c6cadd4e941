import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join, relative } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { InputError } from "@presend/shared/errors/InputError";
import type { Abi, Hex } from "viem";
import { SolcOutputSchema } from "./solcOutputSchema";

const require = createRequire(import.meta.url);
const contractsDir = dirname(fileURLToPath(import.meta.url));

// solc 0.8.17 is the compiler Permit2 was deployed with; it ships no types.
type Solc = {
  compile(input: string, options: { import(path: string): unknown }): string;
  version(): string;
};
const solc = require("solc-0.8.17") as Solc;

/** Permit2's project as Uniswap publishes it inside npm @uniswap/v4-periphery (lib/permit2). */
const permit2Dir = dirname(
  dirname(require.resolve("@uniswap/v4-periphery/lib/permit2/src/Permit2.sol")),
);

function solidityFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return solidityFiles(path);
    return entry.name.endsWith(".sol") ? [path] : [];
  });
}

export type Permit2Artifact = {
  contractName: "Permit2";
  compiler: string;
  abi: Abi;
  bytecode: Hex;
  deployedBytecode: Hex;
};

/**
 * Permit2's creation code, byte for byte the one behind its canonical address: the published
 * sources compiled with Permit2's own settings (solc 0.8.17, via IR, 1,000,000 optimizer runs, no
 * metadata hash). Via IR lays out code by AST ids, which follow the order of the sources, so the
 * sources go in as Foundry hands them over: sorted by project path, solmate's two files included.
 * @example compilePermit2().bytecode // CREATE2 through Nick's factory lands at 0x000000000022D473…
 */
export function compilePermit2(): Permit2Artifact {
  const solmate = ["lib/solmate/src/tokens/ERC20.sol", "lib/solmate/src/utils/SafeTransferLib.sol"];
  const paths = [
    ...solidityFiles(join(permit2Dir, "src")).map((path) => relative(permit2Dir, path)),
    ...solmate,
  ].sort();
  const input = {
    language: "Solidity",
    sources: Object.fromEntries(
      paths.map((path) => [path, { content: readFileSync(join(permit2Dir, path), "utf8") }]),
    ),
    settings: {
      remappings: ["solmate/=lib/solmate/"],
      viaIR: true,
      optimizer: { enabled: true, runs: 1_000_000 },
      metadata: { bytecodeHash: "none" },
      outputSelection: {
        "src/Permit2.sol": {
          Permit2: ["abi", "evm.bytecode.object", "evm.deployedBytecode.object"],
        },
      },
    },
  };
  const output = SolcOutputSchema.parse(
    JSON.parse(
      solc.compile(JSON.stringify(input), {
        import: (path: string) => ({ error: `not among Permit2's sources: ${path}` }),
      }),
    ),
  );
  const errors = (output.errors ?? []).filter((error) => error.severity === "error");
  const permit2 = output.contracts?.["src/Permit2.sol"]?.Permit2;
  if (errors.length > 0 || !permit2) {
    throw new InputError(
      `solc failed:\n${errors.map((error) => error.formattedMessage).join("\n")}`,
    );
  }
  return {
    contractName: "Permit2",
    compiler: `solc ${solc.version()}`,
    abi: permit2.abi as Abi,
    bytecode: `0x${permit2.evm.bytecode.object}`,
    deployedBytecode: `0x${permit2.evm.deployedBytecode.object}`,
  };
}

/** The committed artifact the local world deploys (compiling takes seconds; start-up must not). */
export const permit2ArtifactPath = join(contractsDir, "Permit2.json");

/** The exact text written for the artifact (the test compares against it). */
export function permit2ArtifactText(artifact: Permit2Artifact): string {
  return `${JSON.stringify(artifact, null, 2)}\n`;
}

// `npm run compile:permit2 -w devnet` rewrites the committed artifact.
if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(permit2ArtifactPath, permit2ArtifactText(compilePermit2()));
  console.log(`wrote ${permit2ArtifactPath}`);
}
