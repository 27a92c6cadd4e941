import { join } from "node:path";
import { type ClientEvent, createPresendClient, type PaidResult } from "@presend/client";
import type { DeepReport, Report } from "@presend/shared/api/report";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { channelOptions, channelOutOfStep } from "./channelOptions";
import { echoInput } from "./echoInput";
import { openPinStore } from "./openPinStore";
import { openSpendCaps } from "./openSpendCaps";
import { type CliCommand, parseCliArgs, usage } from "./parseCliArgs";
import { readBaseChainReader } from "./readBaseChainReader";
import { readServerUrl } from "./readServerUrl";
import { readSpendCaps, type SpendCaps } from "./readSpendCaps";
import { runReceiptCommand } from "./runReceiptCommand";
import { unansweredPayments } from "./unansweredPayments";

/** Exit codes: scripts can tell a refusal to pay from a failed payment or a server fault. */
export const exitCodes = {
  ok: 0,
  /** validate: the address is not usable. */
  invalidAddress: 1,
  usage: 2,
  /** The CLI refused to pay (before signing): attestation, pinned key, offer, payTo, price, network, asset, validity, redirect, --max-price or the spend cap. */
  refusedToPay: 3,
  /** The server refused the payment before settling it: nothing was charged. */
  paymentFailed: 4,
  /** The server answered an error (400, 503, ...) or could not be reached: nothing was charged. */
  serverError: 5,
  /** Charged (or possibly charged) but no report: stderr says how to fetch it through /receipts. */
  chargedNoReport: 6,
  /** A report arrived whose signature does not verify with the pinned key: not trusted, not printed. */
  forgedReport: 7,
} as const;

export type CliDeps = {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  fetch?: typeof fetch;
  /** Directory of pins.json; defaults to $XDG_CONFIG_HOME/presend. */
  configDir: string;
  /**
   * Listens for an interrupt (Ctrl-C, SIGTERM) while a check or deep runs; returns the function
   * that stops listening. The handler prints what is known of the charge and returns the exit
   * code to end with at once, or null when nothing was sent (then the signal's own): main exits
   * the process with it. A payment already sent keeps going server-side.
   */
  onInterrupt?: (handler: () => number | null) => () => void;
};

/**
 * Runs `presend validate|check|deep` and returns the exit code; all output goes through deps.
 * @example process.exitCode = await runCli(process.argv.slice(2), deps);
 */
export async function runCli(argv: readonly string[], deps: CliDeps): Promise<number> {
  if (argv[0] === "close" && argv.length === 1) return closeChannel(deps);
  if (argv[0] === "receipt") return runReceiptCommand(argv.slice(1), deps);
  const parsed = parseCliArgs(argv);
  if (parsed.type === "help") {
    deps.stdout(usage);
    return exitCodes.ok;
  }
  if (parsed.type === "error") {
    deps.stderr(`presend: ${parsed.message}\n\n${usage}`);
    return exitCodes.usage;
  }
  const command = parsed.value;
  const server = serverUrl(deps);
  if (server === null) return exitCodes.usage;
  if (command.command === "validate") return validate(command, server, deps);
  return paidCheck(command, server, deps);
}

/** PRESEND_URL, or null once its refusal is printed (a usage error: nothing was sent). */
function serverUrl(deps: CliDeps): string | null {
  try {
    return readServerUrl(deps.env);
  } catch (error) {
    deps.stderr(`presend: ${error instanceof Error ? error.message : String(error)}`);
    return null;
  }
}

async function validate(command: CliCommand, server: string, deps: CliDeps) {
  const client = createPresendClient({
    url: server,
    pinStore: openPinStore(join(deps.configDir, "pins.json")),
    ...(deps.fetch && { fetch: deps.fetch }),
  });
  const outcome = await client.validate(command.address);
  if (outcome.type === "failed") {
    deps.stderr(
      outcome.status === null
        ? // The client's message names the server and the cause ("Cannot reach <url>: …").
          `presend: ${outcome.message}`
        : `presend: server answered ${outcome.status} (${outcome.code}: ${outcome.message})`,
    );
    return outcome.status === 400 ? exitCodes.usage : exitCodes.serverError;
  }
  const { result } = outcome;
  if (command.json) deps.stdout(JSON.stringify(result, null, 2));
  else
    deps.stdout(
      `${result.normalized ?? echoInput(command.address)}: ${result.checksum.status}. ${result.checksum.message}`,
    );
  return result.valid ? exitCodes.ok : exitCodes.invalidAddress;
}

/** `presend close`: the server claims what the channel was charged and refunds the rest. */
async function closeChannel(deps: CliDeps) {
  const server = serverUrl(deps);
  if (server === null) return exitCodes.usage;
  const key = deps.env.PRESEND_PRIVATE_KEY;
  let channel: ReturnType<typeof channelOptions> = null;
  let readContract: ReturnType<typeof readBaseChainReader>;
  let spendCaps: SpendCaps;
  try {
    readContract = readBaseChainReader(deps.env);
    spendCaps = readSpendCaps(deps.env);
    // A channel opened before PRESEND_CHANNEL=off is still closed (closing deposits nothing).
    channel = channelOptions(
      { ...deps.env, PRESEND_CHANNEL: "on", PRESEND_CHANNEL_DEPOSIT: undefined },
      { configDir: deps.configDir, durable: true, maxDeposit: spendCaps.maxDeposit },
    );
  } catch (error) {
    deps.stderr(`presend: ${error instanceof Error ? error.message : String(error)}`);
    return exitCodes.usage;
  }
  if (!key || !bytes32Pattern.test(key) || channel === null) {
    deps.stderr("presend: close needs PRESEND_PRIVATE_KEY.");
    return exitCodes.usage;
  }
  const client = createPresendClient({
    url: server,
    // The refund voucher counts from the channel's state: one out of step is resynced from Base.
    signer: { ...privateKeyToAccount(key as Hex), ...(readContract && { readContract }) },
    pinStore: openPinStore(join(deps.configDir, "pins.json")),
    channel,
    // Closing pays nothing: the day's cap gets back what came back of the deposits earlier
    // runs made today.
    spendCap: openSpendCaps(spendCaps, deps.configDir),
    ...(deps.fetch && { fetch: deps.fetch }),
  });
  const closed = await client.closeChannel();
  if (closed.type === "failed") {
    // A close pays nothing: its refund voucher signs no more than the checks were charged.
    deps.stderr(
      `presend: ${closed.message}${closed.code === channelOutOfStep ? " (set PRESEND_BASE_RPC_URL to a Base JSON-RPC endpoint)" : ""} (charged: no)`,
    );
    return exitCodes.serverError;
  }
  deps.stdout(
    `channel closed: ${closed.refunded === null ? "the rest" : formatUsdc(closed.refunded)} refunded in USDC in ${closed.transaction}; the next check opens a new channel`,
  );
  return exitCodes.ok;
}

async function paidCheck(command: CliCommand, server: string, deps: CliDeps) {
  const key = deps.env.PRESEND_PRIVATE_KEY;
  if (!key || !bytes32Pattern.test(key)) {
    deps.stderr(
      "presend: set PRESEND_PRIVATE_KEY to the 0x-prefixed private key that pays (USDC on Base).",
    );
    return exitCodes.usage;
  }
  const account = privateKeyToAccount(key as Hex);
  let spendCaps: SpendCaps;
  let channel: ReturnType<typeof channelOptions>;
  let readContract: ReturnType<typeof readBaseChainReader>;
  try {
    spendCaps = readSpendCaps(deps.env);
    readContract = readBaseChainReader(deps.env);
    // On by default; a deposit above the spend cap is refused here, before any request.
    channel = command.channel
      ? channelOptions(deps.env, {
          configDir: deps.configDir,
          durable: true,
          maxDeposit: spendCaps.maxDeposit,
        })
      : null;
  } catch (error) {
    deps.stderr(`presend: ${error instanceof Error ? error.message : String(error)}`);
    return exitCodes.usage;
  }
  const pins = openPinStore(join(deps.configDir, "pins.json"));
  const route = `/${command.command}`;
  // A run killed after its payment left (SIGKILL: nothing of it runs on) told no receipt id:
  // its note is told here, by the next run, so its report can still be fetched.
  const unanswered = unansweredPayments(join(deps.configDir, "unanswered"));
  for (const earlier of unanswered.takeAbandoned()) {
    deps.stderr(
      `presend: an earlier run (pid ${earlier.pid}) was stopped at ${earlier.sentAt} after sending the payment for ${earlier.command} ${earlier.address}, before its answer; charged: unknown\npresend: to fetch its report: presend receipt ${earlier.nonce} (once the server has it; ask again if it says not decided yet)${retryHint(earlier.paymentId, earlier)}`,
    );
  }
  const noted: string[] = [];
  // What an interrupt says: nothing sent yet, a payment sent (its receipt id), or settled.
  let sent: Extract<ClientEvent, { type: "paying" }> | null = null;
  let settled = false;
  // Printed the moment they happen: the settlement before anything reads the report.
  const onEvent = (event: ClientEvent) => {
    if (event.type === "paying") {
      sent = event;
      // Written before the payment leaves; gone once this run has told its outcome.
      unanswered.note({
        command: command.command === "deep" ? "deep" : "check",
        address: command.address,
        chain: command.chain,
        from: command.from,
        nonce: event.authorization.nonce,
        paymentId: event.paymentId,
      });
      noted.push(event.authorization.nonce);
    }
    if (event.type === "settled") settled = true;
    if (event.type === "pinned")
      deps.stderr(`presend: pinned attestation key ${event.kid} for ${event.origin} (first use)`);
    if (event.type === "key_followed")
      deps.stderr(
        `presend: ${event.origin} rotated its attestation key: ${event.from} signed the hand-over to ${event.kid}, now pinned (${event.fingerprint})`,
      );
    if (event.type === "settled" && event.settlement.viaChannel)
      deps.stderr(
        `presend: paid ${route} over the payment channel of ${account.address}; receipt ${event.settlement.transaction} (lost the output? GET ${server}/receipts/${account.address.toLowerCase()}/${event.settlement.transaction} signed by the payer, once claimed)`,
      );
    else if (event.type === "settled")
      deps.stderr(
        `presend: paid ${route} from ${account.address}; settlement ${event.settlement.transaction} (lost the output? GET ${server}/receipts/${event.settlement.transaction} signed by the payer)`,
      );
    if (event.type === "recovering")
      deps.stderr(`presend: the answer was lost or unreadable; fetching it through /receipts`);
  };
  const client = createPresendClient({
    url: server,
    // Base read access lets a channel whose last answer was lost resync and pay on.
    signer: { ...account, ...(readContract && { readContract }) },
    pinStore: pins,
    onEvent,
    // The same check again within the server's window is read back signed in, not paid again.
    signIn: true,
    // What this run, and today's runs together, may spend: a deposit is reserved whole.
    spendCap: openSpendCaps(spendCaps, deps.configDir),
    ...(command.maxPrice !== null && { maxPrice: command.maxPrice }),
    ...(channel && { channel }),
    ...(deps.fetch && { fetch: deps.fetch }),
  });
  const input = {
    address: command.address,
    chain: command.chain,
    ...(command.from !== null && { from: command.from }),
    ...(command.paymentId !== null && { paymentId: command.paymentId }),
  };
  const stopListening = deps.onInterrupt?.(() => {
    if (sent === null) {
      // "paying" is told before the payment goes out: nothing was sent, so nothing charged.
      deps.stderr("presend: interrupted before paying\npresend: charged: no");
      return null;
    }
    deps.stderr(
      `presend: interrupted while paying; the payment was sent and the server may still settle it\npresend: charged: ${settled ? "yes" : "unknown"}\npresend: to fetch the report: presend receipt ${sent.authorization.nonce} (once the server has it; ask again if it says not decided yet)${retryHint(sent.paymentId, command)}`,
    );
    for (const nonce of noted) unanswered.answered(nonce);
    return exitCodes.chargedNoReport;
  });
  try {
    const result: PaidResult<Report | DeepReport> =
      command.command === "deep" ? await client.deep(input) : await client.check(input);
    return report(result, command, deps, pins.file);
  } finally {
    stopListening?.();
    for (const nonce of noted) unanswered.answered(nonce);
  }
}

function report(
  result: PaidResult<Report | DeepReport>,
  command: CliCommand,
  deps: CliDeps,
  pinsFile: string,
): number {
  switch (result.type) {
    case "report":
      if (result.signedIn) {
        deps.stderr(
          `presend: read again signed in; paid earlier (settlement ${result.settlement.transaction}), nothing charged now`,
        );
      } else if (result.recovered) deps.stderr("presend: report recovered through /receipts");
      deps.stdout(command.json ? JSON.stringify(result.report, null, 2) : result.report.report);
      return exitCodes.ok;
    case "refused": {
      if (result.code === "invalid_address") {
        deps.stderr(`presend: ${echoInput(command.address)}: ${result.message}`);
        return exitCodes.usage;
      }
      if (result.code === "invalid_from" || result.code === "from_equals_address") {
        deps.stderr(
          `presend: --from ${echoInput(command.from ?? "")}: ${result.message} (charged: no)`,
        );
        return exitCodes.usage;
      }
      const where =
        result.code === "over_max_price"
          ? " (--max-price)"
          : result.code === "cap_reached"
            ? // The daily cap's refusal names its own setting; the session cap's cannot.
              result.message.includes("PRESEND_DAILY_CAP")
              ? ""
              : " (PRESEND_SPEND_CAP, PRESEND_CHANNEL_DEPOSIT)"
            : result.code === "key_changed" || result.code === "pin_store_unreadable"
              ? ` (pins: ${pinsFile})`
              : "";
      const message = `${result.message}${where}`;
      deps.stderr(`presend: refusing to pay: ${message}\npresend: charged: no`);
      return exitCodes.refusedToPay;
    }
    case "not_charged":
      if (result.status === null) {
        // One line: what failed (the client's message, its cause already one line without URLs),
        // that nothing was charged, and what to do.
        deps.stderr(
          result.code === "unreachable"
            ? `presend: ${result.message} (charged: no)`
            : `presend: ${result.message} (charged: no) ${nothingSentAdvice(result.code, command)}`,
        );
        return exitCodes.serverError;
      }
      if (result.status === 402) {
        deps.stderr(
          `presend: the server refused the payment: ${result.message}${result.code === channelOutOfStep ? " (set PRESEND_BASE_RPC_URL to a Base JSON-RPC endpoint, or pay with --no-channel)" : ""}\npresend: charged: no`,
        );
        return exitCodes.paymentFailed;
      }
      deps.stderr(
        `presend: server answered ${result.status} (${result.code}: ${result.message})\npresend: charged: no`,
      );
      return result.status === 400 ? exitCodes.usage : exitCodes.serverError;
    case "unrecovered":
      deps.stderr(
        `presend: ${result.message}\npresend: charged: ${result.charged === true ? "yes" : "unknown"}\npresend: to fetch the report: presend receipt ${result.authorization.nonce} (the API: ${result.recover})${retryHint(result.paymentId, command)}`,
      );
      return exitCodes.chargedNoReport;
    case "forged":
      deps.stderr(
        `presend: FORGED REPORT, not shown: ${result.message}\npresend: charged: ${result.charged === true ? "yes" : "unknown"}${result.settlement ? ` (settlement ${result.settlement.transaction})` : ""}`,
      );
      return exitCodes.forgedReport;
  }
}

/**
 * What to do after a payment failed before anything was sent: a channel's signing reads the
 * escrow through PRESEND_BASE_RPC_URL, so that endpoint is the first suspect, and paying this
 * check on its own (--no-channel) needs no channel at all.
 */
function nothingSentAdvice(code: string, command: CliCommand): string {
  const retry = `retry presend ${command.command}`;
  if (!command.channel) return `${retry}; if it fails again, check PRESEND_PRIVATE_KEY.`;
  if (code === "channel_unavailable")
    return `${retry} once the other run is done, or add --no-channel to pay this check on its own.`;
  return `${retry}; if it fails again, check that PRESEND_BASE_RPC_URL (if set) answers for Base, or add --no-channel to pay this check on its own.`;
}

/** How to ask again without paying twice: the same call with the payment id it was sent with. */
function retryHint(
  paymentId: string | null,
  command: Pick<CliCommand, "command" | "address" | "from"> & { chain: string },
): string {
  if (paymentId === null) return "";
  return `\npresend: payment id ${paymentId}; or retry without paying twice: presend ${command.command} ${command.address} --chain ${command.chain}${command.from === null ? "" : ` --from ${command.from}`} --payment-id ${paymentId}`;
}
