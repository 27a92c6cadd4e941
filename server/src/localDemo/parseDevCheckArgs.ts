import { parseArgs } from "node:util";
import { checksumStatus } from "@presend/shared/address/checksumStatus";
import { type ChainName, chainNames, isChainName } from "@presend/shared/chains/chains";
import type { Address } from "viem";

export const devCheckUsage =
  "usage: npm run dev:check -- <address> [base|ethereum|arbitrum|optimism|polygon] [--deep] [--json] [--from=<sender>]";

/** What `--help` prints: the usage line and what each part does. */
export const devCheckHelp = `${devCheckUsage}

Checks an address on the local world (started for the run when none is running), free and
unpaid, and prints the report.
  <address>      the recipient to check (0x and 40 hex digits)
  chain          where the funds would go (default: base)
  --deep         the deep check: all five chains, the wrong network and the wrong token
  --json         the report as JSON, as the API answers it
  --from=<addr>  who would send: finds lookalikes of addresses the sender paid before
  -h, --help     this text`;

export type DevCheckArgs = {
  address: Address;
  chain: ChainName;
  deep: boolean;
  json: boolean;
  from: Address | null;
};

/**
 * Reads `npm run dev:check`'s arguments, or says what is wrong with them: a flag it does not
 * know (a misspelt `--deep` would otherwise print a plain check as if it were the deep one), an
 * address that is not one, a chain it does not serve.
 * @example parseDevCheckArgs(["0xd8dA…6045", "base", "--deep"]) // { args: { chain: "base", deep: true, … } }
 */
export function parseDevCheckArgs(
  argv: readonly string[],
): { args: DevCheckArgs } | { error: string } | { help: string } {
  let parsed: ReturnType<typeof parseOptions>;
  try {
    parsed = parseOptions(argv);
  } catch (error) {
    // Node's own advice for an unknown option (quote it after "--") is not what was meant here.
    const { code, message } = error as { code?: string; message: string };
    const unknown = /'(--?[^']*)'/.exec(message)?.[1];
    const reason =
      code === "ERR_PARSE_ARGS_UNKNOWN_OPTION" && unknown ? `unknown flag "${unknown}"` : message;
    return { error: `${reason}\n${devCheckUsage}` };
  }
  if (parsed.values.help === true) return { help: devCheckHelp };
  const [address, chain = "base", ...extra] = parsed.positionals;
  if (!address) return { error: devCheckUsage };
  if (extra.length > 0) return { error: `unexpected "${extra.join(" ")}"\n${devCheckUsage}` };
  const status = checksumStatus(address);
  if (!status.valid || !status.normalized) {
    return { error: `${address}: ${status.checksum.message}` };
  }
  if (!isChainName(chain)) {
    return { error: `unknown chain "${chain}"; one of ${chainNames.join(", ")}` };
  }
  const fromArg = parsed.values.from;
  const sender = fromArg === undefined ? null : checksumStatus(fromArg);
  if (sender && (!sender.valid || !sender.normalized)) {
    return { error: `--from ${fromArg}: ${sender.checksum.message}` };
  }
  return {
    args: {
      address: status.normalized,
      chain,
      deep: parsed.values.deep === true,
      json: parsed.values.json === true,
      from: sender?.normalized ?? null,
    },
  };
}

function parseOptions(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      deep: { type: "boolean" },
      json: { type: "boolean" },
      from: { type: "string" },
      help: { type: "boolean", short: "h" },
    },
  });
}
