import { resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parseArgs } from "node:util";
import { type SnapshotKind, snapshotKinds } from "@presend/shared/api/snapshots/snapshotKinds";
import { InputError } from "@presend/shared/errors/InputError";
import { z } from "zod";
import { startFixtureSources } from "./fixtureSources";
import { LiveConfigSchema, liveSources } from "./liveSources";
import { runGenerator, type Written } from "./runGenerator";

const snapshotsDir = fileURLToPath(new URL("../", import.meta.url));

// `npm run -w snapshots` runs in snapshots/; paths typed by the user are relative to where they typed.
const userPath = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path);

const usage =
  "usage: npm run snapshots -- <diligence|landscape|arbitrum-rail|solana-rail|all> [--as-of YYYY-MM-DD] [--live | --fixtures DIR] [--out DIR]";

export const GenerateArgsSchema = z
  .object({
    kind: z.enum([...snapshotKinds, "all"]),
    asOf: z.iso.date().optional(),
    live: z.boolean(),
    fixtures: z.string().optional(),
    out: z.string(),
  })
  .refine((args) => args.live !== (args.fixtures !== undefined), {
    message: "choose exactly one of --live and --fixtures DIR",
  });
export type GenerateArgs = z.infer<typeof GenerateArgsSchema>;

/**
 * Parses the command line of `npm run snapshots --`.
 * @example parseGenerateArgs(["all", "--fixtures", "snapshots/fixtures", "--as-of", "2026-11-21"])
 */
export function parseGenerateArgs(argv: string[]): GenerateArgs {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      "as-of": { type: "string" },
      live: { type: "boolean", default: false },
      fixtures: { type: "string" },
      out: { type: "string", default: snapshotsDir },
    },
  });
  const parsed = GenerateArgsSchema.safeParse({
    kind: positionals[0],
    asOf: values["as-of"],
    live: values.live,
    fixtures: values.fixtures,
    out: values.out,
  });
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new InputError(`${issue?.path.join(".") || "arguments"}: ${issue?.message}\n${usage}`);
  }
  return parsed.data;
}

async function main(argv: string[]): Promise<Written[]> {
  const args = parseGenerateArgs(argv);
  const kinds: SnapshotKind[] = args.kind === "all" ? [...snapshotKinds] : [args.kind];
  const outDir = userPath(args.out);
  if (args.fixtures) {
    const fixtures = await startFixtureSources(userPath(args.fixtures));
    try {
      return await runGenerator({
        kinds,
        sources: fixtures.sources,
        asOf: args.asOf ?? fixtures.asOf,
        outDir,
        provenance: fixtures.provenance,
      });
    } finally {
      await fixtures.stop();
    }
  }
  const config = LiveConfigSchema.parse(process.env);
  return runGenerator({
    kinds,
    sources: liveSources(config, resolve(outDir, "history", "payto")),
    ...(args.asOf ? { asOf: args.asOf } : {}),
    outDir,
    provenance: {
      source: `x402 directory ${config.PRESEND_SNAPSHOT_DIRECTORY_URL}, the services' live discovery documents, public Arbitrum, Base and Solana RPC`,
      note: "Dated snapshot, not a live feed: figures cover the stated window only. Inflow counts every USDC transfer to a payTo address.",
    },
  });
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main(process.argv.slice(2)).then(
    (written) => {
      for (const { kind, file } of written) console.log(`${kind}: ${file}`);
    },
    (error: unknown) => {
      console.error(error instanceof Error ? error.message : error);
      process.exitCode = 1;
    },
  );
}
