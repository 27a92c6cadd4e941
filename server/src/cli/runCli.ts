import { join } from "node:path";
import { checksumStatus } from "@presend/shared/address/checksumStatus";
import { ErrorBodySchema } from "@presend/shared/api/errors";
import { DeepReportSchema, ReportSchema } from "@presend/shared/api/report";
import { ValidateResponseSchema } from "@presend/shared/api/validate";
import { attestationExtensionKey } from "@presend/shared/attestation/attestationSchemas";
import { verifyAttestation } from "@presend/shared/attestation/verifyAttestation";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { decodePaymentResponseHeader, wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { formatUnits, type Hex } from "viem";
import { privateKeyToAccount } from "viem/accounts";
import { openPinStore } from "./openPinStore";
import { type CliCommand, parseCliArgs, usage } from "./parseCliArgs";

/** Exit codes: scripts can tell a refusal to pay from a failed payment or a server fault. */
export const exitCodes = {
  ok: 0,
  /** validate: the address is not usable. */
  invalidAddress: 1,
  usage: 2,
  /** The CLI refused to pay: attestation, pinned key, payTo or price did not match, or over --max-price. */
  refusedToPay: 3,
  /** The server refused the payment (402 after paying). */
  paymentFailed: 4,
  /** The server answered an error (400, 503, ...) or could not be reached. */
  serverError: 5,
} as const;

export type CliDeps = {
  env: Record<string, string | undefined>;
  stdout: (text: string) => void;
  stderr: (text: string) => void;
  fetch?: typeof fetch;
  /** Directory of pins.json; defaults to $XDG_CONFIG_HOME/presend. */
  configDir: string;
};

export const defaultServerUrl = "http://127.0.0.1:8402";

/**
 * Runs `presend validate|check|deep` and returns the exit code; all output goes through deps.
 * @example process.exitCode = await runCli(process.argv.slice(2), deps);
 */
export async function runCli(argv: readonly string[], deps: CliDeps): Promise<number> {
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
  const server = (deps.env.PRESEND_URL || defaultServerUrl).replace(/\/+$/, "");
  const fetchFn = deps.fetch ?? fetch;
  try {
    if (command.command === "validate") return await validate(command, server, fetchFn, deps);
    return await paidCheck(command, server, fetchFn, deps);
  } catch (error) {
    deps.stderr(
      `presend: cannot reach ${server}: ${error instanceof Error ? error.message : String(error)}`,
    );
    return exitCodes.serverError;
  }
}

async function validate(command: CliCommand, server: string, fetchFn: typeof fetch, deps: CliDeps) {
  const response = await fetchFn(
    `${server}/validate?address=${encodeURIComponent(command.address)}`,
  );
  if (!response.ok) return serverError(response, deps);
  const result = ValidateResponseSchema.parse(await response.json());
  if (command.json) deps.stdout(JSON.stringify(result, null, 2));
  else
    deps.stdout(
      `${result.normalized ?? command.address}: ${result.checksum.status}. ${result.checksum.message}`,
    );
  return result.valid ? exitCodes.ok : exitCodes.invalidAddress;
}

async function paidCheck(
  command: CliCommand,
  server: string,
  fetchFn: typeof fetch,
  deps: CliDeps,
) {
  // Free and local first: a malformed address must never reach the payment step.
  const local = checksumStatus(command.address);
  if (!local.valid) {
    deps.stderr(`presend: ${command.address}: ${local.checksum.message}`);
    return exitCodes.usage;
  }
  const key = deps.env.PRESEND_PRIVATE_KEY;
  if (!key || !/^0x[0-9a-fA-F]{64}$/.test(key)) {
    deps.stderr(
      "presend: set PRESEND_PRIVATE_KEY to the 0x-prefixed private key that pays (USDC on Base).",
    );
    return exitCodes.usage;
  }
  const account = privateKeyToAccount(key as Hex);
  const route = `/${command.command}`;
  const origin = new URL(server).origin;
  const pins = openPinStore(join(deps.configDir, "pins.json"));
  let refusal: string | null = null;

  const client = new x402Client();
  registerExactEvmScheme(client, { signer: toClientEvmSigner(account) });
  // Runs after the 402 and before anything is signed: verify, pin, compare, or refuse.
  client.onBeforePaymentCreation(async ({ paymentRequired, selectedRequirements }) => {
    const pinned = pins.get(origin);
    const result = await verifyAttestation({
      block: (
        paymentRequired.extensions?.[attestationExtensionKey] as { info?: unknown } | undefined
      )?.info,
      route,
      payTo: selectedRequirements.payTo,
      amount: selectedRequirements.amount,
      ...(pinned && { pinnedThumbprint: pinned.thumbprint }),
    });
    if (result.type === "invalid") {
      refusal = `refusing to pay: ${result.message}`;
      if (result.reason === "key_changed") {
        refusal += `\nIf the operator really rotated the key, remove ${origin} from ${pins.file} to trust the new one.`;
      }
      return { abort: true, reason: result.reason };
    }
    if (command.maxPrice !== null && BigInt(selectedRequirements.amount) > command.maxPrice) {
      refusal = `refusing to pay: ${route} costs ${usd(selectedRequirements.amount)} USDC, above --max-price ${usd(command.maxPrice)}`;
      return { abort: true, reason: "max_price" };
    }
    if (!pinned) {
      pins.set(origin, {
        thumbprint: result.thumbprint,
        kid: result.block.key.kid,
        pinnedAt: new Date().toISOString(),
      });
      deps.stderr(
        `presend: pinned attestation key ${result.block.key.kid} for ${origin} (first use)`,
      );
    }
  });

  const pay = wrapFetchWithPayment(fetchFn, client);
  let response: Response;
  try {
    response = await pay(`${server}${route}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: command.address.trim(), chain: command.chain }),
    });
  } catch (error) {
    if (refusal !== null) {
      deps.stderr(`presend: ${refusal}`);
      return exitCodes.refusedToPay;
    }
    throw error;
  }
  if (response.status === 402) {
    const body = (await response.json().catch(() => ({}))) as { error?: unknown };
    deps.stderr(
      `presend: the server refused the payment: ${String(body.error ?? "payment required")}`,
    );
    return exitCodes.paymentFailed;
  }
  if (!response.ok) return serverError(response, deps);
  const schema = command.command === "deep" ? DeepReportSchema : ReportSchema;
  const report = schema.parse(await response.json());
  const header = response.headers.get("payment-response");
  const settlement = header ? decodePaymentResponseHeader(header) : null;
  if (command.json) deps.stdout(JSON.stringify(report, null, 2));
  else deps.stdout(report.report);
  if (settlement?.transaction) {
    deps.stderr(
      `presend: paid ${route} from ${account.address}; settlement ${settlement.transaction} (lost the output? GET ${server}/receipts/${settlement.transaction} signed by the payer)`,
    );
  }
  return exitCodes.ok;
}

async function serverError(response: Response, deps: CliDeps) {
  const body = ErrorBodySchema.safeParse(await response.json().catch(() => null));
  const detail = body.success
    ? `${body.data.error.code}: ${body.data.error.message}`
    : response.statusText;
  deps.stderr(`presend: server answered ${response.status} (${detail})`);
  return response.status === 400 ? exitCodes.usage : exitCodes.serverError;
}

function usd(amount: string | bigint): string {
  return formatUnits(BigInt(amount), 6);
}
