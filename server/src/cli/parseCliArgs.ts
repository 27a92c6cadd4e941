import { parseArgs } from "node:util";
import { type ChainName, chainNames, isChainName } from "@presend/shared/chains/chains";
import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import { priceInUsd } from "@presend/shared/pricing/priceInUsd";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { isValidPaymentId } from "@x402/extensions/payment-identifier";
import { parseUnits } from "viem";

export type CliCommand = {
  command: "validate" | "check" | "deep";
  address: string;
  chain: ChainName;
  /** The sender (--from), whose own payments the check reads; null when not given. */
  from: string | null;
  json: boolean;
  /** Most the caller agrees to pay, in USDC base units; null when not limited. */
  maxPrice: bigint | null;
  /** The x402 payment id of an earlier call to retry (same report, charged once); null: a new one. */
  paymentId: string | null;
  /** Pay through a payment channel when the server offers one (false with --no-channel). */
  channel: boolean;
};

export type ParsedCli =
  | { type: "command"; value: CliCommand }
  | { type: "help" }
  | { type: "error"; message: string };

export const usage = `usage: presend <validate|check|deep> <address> [--chain base] [--from <sender>] [--json] [--max-price ${priceInUsd("deep")}] [--payment-id <id>] [--no-channel]
       presend receipt <id> [--json]  (the report of a paid check whose answer was lost, by the
                             id it named; free: see presend receipt --help)
       presend close         (refund the rest of the payment channel's deposit)
       presend mcp           (MCP server on stdio: tools validate, check, deep, receipt,
                             close_channel; see README)
       presend facilitator   (serve the x402 facilitator over HTTP for API replicas; see README)
       presend rotate-attestation-key --out <file>  (operators: a new attestation key; see
                             presend rotate-attestation-key --help)

  validate   free EIP-55 checksum pre-check
  check      paid single-chain check (${formatUsdc(routePrices.check)})
  deep       paid five-chain check (${formatUsdc(routePrices.deep)})

  --chain      ${chainNames.join(", ")} (default base)
  --from       the sender (your address): reads your own payments on the chain, so a
               lookalike of an address you paid (address poisoning) or a first payment shows
  --json       print the report as JSON
  --max-price  refuse to pay more than this many USD (USDC)
  --payment-id retry an earlier check or deep with the payment id it printed: the same report,
               charged once (a new id is made for every call without it)
  --no-channel pay this check on its own (exact), not through the payment channel

payment channel: when the server offers one, check and deep pay through it: one deposit, then
  a voucher per check signed by a session key kept in the config directory, no transaction
  each; \`presend close\` gets the rest of the deposit back.

environment:
  PRESEND_PRIVATE_KEY      key that pays (0x + 64 hex), needed by check, deep and close
  PRESEND_URL              server (default http://127.0.0.1:8402)
  PRESEND_BASE_RPC_URL     Base JSON-RPC, read only (optional): with it, a payment channel whose
                           answer was lost resyncs from the escrow and pays on
  PRESEND_SPEND_CAP        USD one run (mcp: one session) may spend, a channel deposit
                           counted whole (default 0.10)
  PRESEND_DAILY_CAP        USD all runs and mcp sessions with this config directory may spend
                           in a UTC day (default 1.00; kept in the config directory)
  PRESEND_CHANNEL          on (default) or off: off pays every check on its own
  PRESEND_CHANNEL_DEPOSIT  USD one channel deposit puts in (default ten checks at the offered
                           price, at most either cap; above it is refused)

exit codes: 0 done, 1 address not valid (validate), 2 usage, 3 refused to pay (charged: no),
  4 payment refused by the server (charged: no), 5 server error or unreachable (charged: no),
  6 charged or possibly charged but no report (stderr names the presend receipt command that
  fetches it; also Ctrl-C once the payment was sent), 7 forged report; Ctrl-C (or SIGTERM,
  or SIGHUP when the terminal closes) before paying: charged: no, 130 (143, 129)`;

/**
 * Parses the presend command line; never throws.
 * @example parseCliArgs(["check", "0xd8dA...", "--chain", "base"])
 */
export function parseCliArgs(argv: readonly string[]): ParsedCli {
  let parsed: ReturnType<typeof parse>;
  try {
    parsed = parse(argv);
  } catch (error) {
    return { type: "error", message: error instanceof Error ? error.message : String(error) };
  }
  const { positionals } = parsed;
  // Each option that takes a value is read as a list, so one given twice (`--chain base --chain
  // ethereum`, a script's defaults before the caller's) is refused rather than resolved silently
  // to the last: which chain, sender or price limit was meant is not known.
  const repeated = valueOptions.find((name) => (parsed.values[name]?.length ?? 0) > 1);
  if (repeated !== undefined) {
    return { type: "error", message: `--${repeated} is given more than once; give it once` };
  }
  const values = {
    ...parsed.values,
    chain: parsed.values.chain?.[0],
    from: parsed.values.from?.[0],
    "max-price": parsed.values["max-price"]?.[0],
    "payment-id": parsed.values["payment-id"]?.[0],
  };
  if (values.help) return { type: "help" };
  const [command, address, ...rest] = positionals;
  if (command !== "validate" && command !== "check" && command !== "deep") {
    return {
      type: "error",
      message: command ? `unknown command "${command}"` : "missing command",
    };
  }
  if (address === undefined) return { type: "error", message: `${command} needs an address` };
  if (rest.length > 0) return { type: "error", message: `unexpected argument "${rest[0]}"` };
  const chain = values.chain ?? "base";
  if (!isChainName(chain)) {
    return { type: "error", message: `unknown chain "${chain}": use ${chainNames.join(", ")}` };
  }
  let maxPrice: bigint | null = null;
  if (values["max-price"] !== undefined) {
    const text = values["max-price"].replace(/^\$/, "");
    if (!/^\d+(\.\d{1,6})?$/.test(text)) {
      return {
        type: "error",
        message: `--max-price must be USD like 0.05, got "${values["max-price"]}"`,
      };
    }
    maxPrice = parseUnits(text, 6);
  }
  const paymentId = values["payment-id"] ?? null;
  if (paymentId !== null && !isValidPaymentId(paymentId)) {
    return {
      type: "error",
      message: `--payment-id must be 16 to 128 of A-Z a-z 0-9 _ -, got "${paymentId.slice(0, 40)}"`,
    };
  }
  const from = values.from ?? null;
  if (from !== null && command === "validate") {
    return { type: "error", message: "--from applies to check and deep" };
  }
  if (values["no-channel"] && command === "validate") {
    return { type: "error", message: "--no-channel applies to check and deep" };
  }
  return {
    type: "command",
    value: {
      command,
      address,
      chain,
      from,
      json: values.json ?? false,
      maxPrice,
      paymentId,
      channel: values["no-channel"] !== true,
    },
  };
}

/** The options that take a value: each may be given once. */
const valueOptions = ["chain", "from", "max-price", "payment-id"] as const;

function parse(argv: readonly string[]) {
  return parseArgs({
    args: [...argv],
    allowPositionals: true,
    strict: true,
    options: {
      chain: { type: "string", multiple: true },
      from: { type: "string", multiple: true },
      json: { type: "boolean" },
      "max-price": { type: "string", multiple: true },
      "payment-id": { type: "string", multiple: true },
      "no-channel": { type: "boolean" },
      help: { type: "boolean", short: "h" },
    },
  });
}
