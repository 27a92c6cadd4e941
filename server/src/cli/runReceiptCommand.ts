import { join } from "node:path";
import { parseArgs } from "node:util";
import { createPresendClient } from "@presend/client";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import type { Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { lookUpReceipt } from "./lookUpReceipt";
import { openPinStore } from "./openPinStore";
import { readServerUrl } from "./readServerUrl";
import type { CliDeps } from "./runCli";

/** Exit codes of `presend receipt` (the same numbers as a check's where they mean the same). */
export const receiptExitCodes = {
  ok: 0,
  /** The server holds no charged payment by that id: nothing was charged. */
  notFound: 1,
  usage: 2,
  /** Not decided yet, or the server could not be asked: charged unknown, ask again. */
  unavailable: 6,
  /** The stored report's signature does not verify, or it names another payment. */
  forged: 7,
} as const;

export const receiptUsage = `usage: presend receipt <id> [--json]

Fetches again the report of a check or deep check PRESEND_PRIVATE_KEY paid for, by the id a
check named when its answer was lost: the payment's nonce (a check paid over a payment channel
names one) or its settlement transaction. Free: the payer's signature proves who asks. The report
is trusted only when its signature verifies with the key pinned when paying.

exit codes: 0 the report, 1 no charged payment by that id (charged: no), 2 usage,
  6 not available yet or the server unreachable (charged: unknown; ask again), 7 forged report`;

/**
 * `presend receipt <id>`: the report a charged payer did not get, fetched through /receipts.
 * @example process.exitCode = await runReceiptCommand(argv.slice(1), deps);
 */
export async function runReceiptCommand(argv: readonly string[], deps: CliDeps): Promise<number> {
  let parsed: { values: { json?: boolean; help?: boolean }; positionals: string[] };
  try {
    parsed = parseArgs({
      args: [...argv],
      allowPositionals: true,
      strict: true,
      options: { json: { type: "boolean" }, help: { type: "boolean", short: "h" } },
    });
  } catch (error) {
    deps.stderr(
      `presend: ${error instanceof Error ? error.message : String(error)}\n\n${receiptUsage}`,
    );
    return receiptExitCodes.usage;
  }
  if (parsed.values.help) {
    deps.stdout(receiptUsage);
    return receiptExitCodes.ok;
  }
  const [id, ...rest] = parsed.positionals;
  const problem =
    id === undefined
      ? "receipt needs the id a check named"
      : !bytes32Pattern.test(id)
        ? `the id must be 0x followed by 64 hex characters, got "${id.slice(0, 70)}"`
        : rest.length > 0
          ? `unexpected argument "${rest[0]}"`
          : null;
  if (problem !== null) {
    deps.stderr(`presend: ${problem}\n\n${receiptUsage}`);
    return receiptExitCodes.usage;
  }
  let server: string;
  try {
    server = readServerUrl(deps.env);
  } catch (error) {
    deps.stderr(`presend: ${error instanceof Error ? error.message : String(error)}`);
    return receiptExitCodes.usage;
  }
  const key = deps.env.PRESEND_PRIVATE_KEY;
  if (!key || !bytes32Pattern.test(key)) {
    deps.stderr("presend: set PRESEND_PRIVATE_KEY to the 0x-prefixed private key that paid.");
    return receiptExitCodes.usage;
  }
  const account = privateKeyToAccount(key as Hex);
  const client = createPresendClient({
    url: server,
    signer: account,
    pinStore: openPinStore(join(deps.configDir, "pins.json")),
    ...(deps.fetch && { fetch: deps.fetch }),
  });
  const result = await lookUpReceipt(client, account.address, id as Hex);
  switch (result.type) {
    case "report":
      deps.stderr(
        `presend: paid report fetched again (settlement ${result.settlement.transaction}); charged: yes`,
      );
      deps.stdout(
        parsed.values.json ? JSON.stringify(result.report, null, 2) : result.report.report,
      );
      return receiptExitCodes.ok;
    case "not_charged":
      deps.stderr(`presend: ${result.message}\npresend: charged: no`);
      return receiptExitCodes.notFound;
    case "receipt_unavailable":
      deps.stderr(
        `presend: no report yet (${result.code}): ${result.message}\npresend: charged: unknown; ask again later: presend receipt ${id}`,
      );
      return receiptExitCodes.unavailable;
    case "forged":
      deps.stderr(
        `presend: FORGED REPORT, not shown: ${result.message}\npresend: charged: unknown`,
      );
      return receiptExitCodes.forged;
  }
}
