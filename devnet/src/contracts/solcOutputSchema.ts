import { z } from "zod";

/**
 * What solc's standard JSON output must hold for us: errors and warnings, and per contract its
 * ABI, creation and runtime bytecode (with immutable references, which installing by
 * `anvil_setCode` cannot honour). Both compilers of this folder parse their output with it.
 * @example const output = SolcOutputSchema.parse(JSON.parse(solc.compile(JSON.stringify(input))));
 */
export const SolcOutputSchema = z.object({
  errors: z.array(z.object({ severity: z.string(), formattedMessage: z.string() })).optional(),
  contracts: z
    .record(
      z.string(),
      z.record(
        z.string(),
        z.object({
          abi: z.array(z.unknown()),
          evm: z.object({
            bytecode: z.object({ object: z.string() }),
            deployedBytecode: z.object({
              object: z.string(),
              immutableReferences: z.record(z.string(), z.unknown()).optional(),
            }),
          }),
        }),
      ),
    )
    .optional(),
});
