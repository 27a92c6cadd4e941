import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { PaidResult, PresendClient, ReceiptResult } from "@presend/client";
import type { DeepReport, Report } from "@presend/shared/api/report";
import { chainNames } from "@presend/shared/chains/chains";
import { bytes32Pattern } from "@presend/shared/hex/bytes32Pattern";
import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import { routePrices } from "@presend/shared/pricing/routePrices";
import type { Address, Hex } from "viem";
import { z } from "zod";
import { channelOutOfStep } from "../cli/channelOptions";
import { echoInput } from "../cli/echoInput";
import { lookUpReceipt } from "../cli/lookUpReceipt";
import { untoldOutcomeNote } from "./untoldOutcomeNote";

export type McpServerOptions = {
  /** The client that pays (its signer is the PRESEND_PRIVATE_KEY account, its cap the session's). */
  client: PresendClient;
  /** The paying account (null without PRESEND_PRIVATE_KEY): the one whose reports receipt fetches. */
  payer: Address | null;
  /** What this session may spend in total, in USDC base units (stated in the tool descriptions). */
  spendCapUnits: bigint;
  /** What all sessions and CLI runs with this config directory may spend a day (UTC). */
  dailyCapUnits: bigint;
  /**
   * The session's payment channel, when it pays through one the server offers (null with
   * PRESEND_CHANNEL=off): its configured deposit (none: the client's default) and the most one
   * deposit may put in. Stated in the paid tools' descriptions, since the first paid call moves
   * the whole deposit, not the price.
   */
  channel?: { deposit?: bigint; maxDeposit: bigint } | null;
  version: string;
  /**
   * How long a paid tool call may take before the tool answers that it is still running, and
   * validate before it answers that no answer came (default 50 s): the MCP SDK's clients give up
   * on a request after 60 s by default, and an answer they gave up on would say nothing about
   * the charge.
   */
  answerWithinMs?: number;
  /**
   * How long the outcome of a paid call that outlived its answer is kept for the same call to
   * fetch (default 5 min), counted from when it arrived. After that the same call is a new
   * check; a charged outcome dropped so is named, with its receipt id, in the session's next
   * answer and on `log`.
   */
  keepOutcomeMs?: number;
  /** Where the server says what a host may not have seen (stderr for `presend mcp`). */
  log?: (line: string) => void;
};

/** What a tool that needs the paying key says without one: what the host's user must set. */
const noKey =
  "No paying key is configured: set PRESEND_PRIVATE_KEY (0x followed by 64 hex characters, the key of a Base account holding USDC) in this MCP server's environment, then restart it.";

/** Below the MCP SDK's default request timeout (60 s), so the host hears what happened. */
const defaultAnswerWithinMs = 50_000;
/** What `within` gives for work that took longer than it may. */
const late = Symbol("late");
/**
 * Long enough for an agent told to call again to do so; short enough that the same check asked
 * much later (the address may have changed since) is checked again, not answered from the past.
 */
const defaultKeepOutcomeMs = 5 * 60_000;

const addressInput = {
  address: z
    .string()
    .describe(
      "The EVM address to check: 0x followed by 40 hex characters (EIP-55 checksum checked).",
    ),
};
const checkInput = {
  ...addressInput,
  chain: z
    .enum(chainNames)
    .default("base")
    .describe(`The chain the money will be sent on: ${chainNames.join(", ")}.`),
  from: z
    .string()
    .optional()
    .describe(
      "Optional: the sender, the account the money comes from (same rules as address). The check then reads the sender's own payments on the chain: a lookalike of an address the sender paid is address poisoning (danger), an address never paid is a first-time recipient.",
    ),
  paymentId: z
    .string()
    .regex(/^[A-Za-z0-9_-]{16,128}$/)
    .optional()
    .describe(
      "Only to retry: the payment id an earlier call of this tool returned (or named in its error). The same address, chain and sender (from) with it get the same report, charged once. Leave it out for a new check.",
    ),
};
const paidOutput = {
  level: z.enum(["ok", "caution", "warn", "danger"]),
  headline: z.string(),
  next: z.string().describe("The next action to take."),
  text: z.string().describe("The report as text."),
  settlement: z.object({ transaction: z.string(), network: z.string(), payer: z.string() }),
  recovered: z.boolean().describe("True when the report was fetched again through /receipts."),
  paymentId: z
    .string()
    .nullable()
    .describe("The x402 payment id this check was paid with (null when none was sent)."),
  report: z.record(z.string(), z.unknown()).describe("The structured, signature-verified report."),
};

/**
 * The presend MCP server: `validate` (free), `check` and `deep` (paid through x402 by the
 * session's client, within the session's spend cap), `receipt` (free: the report of a paid check
 * whose answer was lost), `close_channel` (the session's payment channel refunded, the spend cap
 * credited what came back). Payment problems come back as tool errors
 * that say what happened and whether anything was charged.
 * @example await createMcpServer({ client, payer, spendCapUnits: 100_000n, version }).connect(new StdioServerTransport());
 */
export function createMcpServer(options: McpServerOptions): McpServer {
  const server = new McpServer({ name: "presend", version: options.version });
  const answerWithinMs = options.answerWithinMs ?? defaultAnswerWithinMs;
  const keepOutcomeMs = options.keepOutcomeMs ?? defaultKeepOutcomeMs;
  /** Paid calls not yet answered to the host, by what they asked: a retry joins them. */
  const unanswered = new Map<string, Promise<PaidResult<Report | DeepReport>>>();
  /** Calls that outlived an answer: their outcome is kept for keepOutcomeMs once it arrives. */
  const outlived = new WeakSet<Promise<PaidResult<Report | DeepReport>>>();
  /**
   * Charged outcomes no answer carried, told (with their receipt id) in the next answer. Not
   * bounded by a count: each was charged, so the spend cap bounds them.
   */
  const untold: string[] = [];
  /** A tool's answer with what the session owes the payer added: each note told once. */
  const telling = (result: CallToolResult): CallToolResult => {
    if (untold.length === 0) return result;
    const notes = untold.splice(0, untold.length);
    return { ...result, content: [...result.content, { type: "text", text: notes.join("\n") }] };
  };
  const channel = options.channel ?? null;
  const deposit =
    channel === null
      ? ""
      : ` When the server offers a payment channel (PRESEND_CHANNEL=off pays each call on its own), the session's first paid call deposits ${channel.deposit === undefined ? `ten checks' worth at the offered price, at most ${formatUsdc(channel.maxDeposit)}` : formatUsdc(channel.deposit)} into it from that account (counted whole against the caps below), later calls pay from that deposit, and close_channel refunds what is left.`;
  const cap = `This session may spend at most ${formatUsdc(options.spendCapUnits)} in total (PRESEND_SPEND_CAP), and at most ${formatUsdc(options.dailyCapUnits)} a day (UTC) across all presend sessions and CLI runs with this config directory (PRESEND_DAILY_CAP).`;

  server.registerTool(
    "validate",
    {
      title: "Validate an address (free)",
      description:
        "Free EIP-55 checksum pre-check of an EVM address: is it well formed, and is its mixed-case checksum right? Costs nothing. Use it before a paid check.",
      inputSchema: addressInput,
      outputSchema: {
        valid: z.boolean(),
        normalized: z.string().nullable(),
        checksum: z.object({ status: z.string(), message: z.string() }),
      },
      annotations: { readOnlyHint: true, openWorldHint: true },
    },
    async ({ address }) => {
      // Free, so nothing is kept for a call again: a server that hangs is said in time.
      const outcome = await within(options.client.validate(address), answerWithinMs);
      if (outcome === late)
        return telling(
          toolError(
            `presend could not validate: no answer from the presend server within ${Math.round(answerWithinMs / 1000)} s. Charged: no (validate is free). Call validate again later.`,
          ),
        );
      if (outcome.type === "failed")
        return telling(
          toolError(
            `presend could not validate: ${sentence(outcome.message)} Charged: no (validate is free).`,
          ),
        );
      const { valid, normalized, checksum } = outcome.result;
      return telling({
        content: [
          {
            type: "text",
            // The input echoed bounded: a pasted blob would fill the agent's context.
            text: `${normalized ?? echoInput(address)}: ${checksum.status}. ${checksum.message}`,
          },
        ],
        structuredContent: { valid, normalized, checksum },
      });
    },
  );

  const paidTool = (route: "check" | "deep", title: string, what: string) =>
    server.registerTool(
      route,
      {
        title,
        description: `${what} Price: ${formatUsdc(routePrices[route])} in USDC on Base, paid through x402 from the PRESEND_PRIVATE_KEY account after the payee's signed attestation is verified.${deposit} ${cap} Returns the verdict level, the headline, the next action, the report text and the structured report.`,
        inputSchema: checkInput,
        outputSchema: paidOutput,
        // Not read-only: each call pays USDC from the key's account, so a host must not treat it
        // as a harmless read it may run without asking.
        annotations: {
          readOnlyHint: false,
          destructiveHint: false,
          openWorldHint: true,
          idempotentHint: false,
        },
      },
      async ({ address, chain, from, paymentId }) => {
        const input = {
          address,
          chain,
          ...(from !== undefined && { from }),
          ...(paymentId !== undefined && { paymentId }),
        };
        const asked = { address, chain, ...(from !== undefined && { from }) };
        // The same call again while an earlier one is still being paid (or finished after its
        // answer was given up) gets that call's outcome: never a second payment.
        const key = JSON.stringify([
          route,
          address.toLowerCase(),
          chain,
          from?.toLowerCase() ?? null,
          paymentId ?? null,
        ]);
        let running = unanswered.get(key);
        if (running === undefined) {
          running = route === "deep" ? options.client.deep(input) : options.client.check(input);
          unanswered.set(key, running);
          // A call that threw is not kept: the next one starts afresh.
          running.catch(() => unanswered.delete(key));
        }
        const paid = running;
        const outcome = await within(paid, answerWithinMs);
        if (outcome === late) {
          if (!outlived.has(paid)) {
            outlived.add(paid);
            paid.then(
              (arrived) => {
                const expire = setTimeout(() => {
                  // Fetched by the same call meanwhile: delivered, nothing to tell.
                  if (unanswered.get(key) !== paid) return;
                  unanswered.delete(key);
                  const note = untoldOutcomeNote(arrived, route, asked);
                  if (note === null) return;
                  untold.push(note);
                  options.log?.(`presend mcp: ${note}`);
                }, keepOutcomeMs);
                // A kept outcome holds no process open: the session's end ends it.
                expire.unref?.();
              },
              () => {},
            );
          }
          return telling(
            toolError(
              `No answer from presend within ${Math.round(answerWithinMs / 1000)} s; this session is still waiting for it, so the payment may be under way. Charged: unknown. Do not start another check: call ${route} again with ${JSON.stringify({ ...asked, ...(paymentId !== undefined && { paymentId }) })} to get this call's outcome (kept in this session for ${keptFor(keepOutcomeMs)} after it arrives, never paid twice; after that the same call is a new check, and if this one was charged, this session's next answer names the receipt id of its report).`,
            ),
          );
        }
        unanswered.delete(key);
        return telling(toolResult(outcome, route, asked));
      },
    );
  server.registerTool(
    "receipt",
    {
      title: "Fetch a paid report again (free)",
      description:
        "Free: fetches the report of a check or deep check this session's key paid for whose answer was lost, by the id the failed call named (the payment's nonce, or its settlement transaction). Use it when check or deep said the charge is yes or unknown and named an id. Returns the same fields as check; an error says whether anything was charged.",
      inputSchema: {
        id: z
          .string()
          .regex(bytes32Pattern)
          .describe(
            "The id a failed check or deep named: 0x followed by 64 hex characters (a payment nonce or a settlement transaction).",
          ),
      },
      outputSchema: paidOutput,
      annotations: { readOnlyHint: true, openWorldHint: true, idempotentHint: true },
    },
    async ({ id }) => {
      if (options.payer === null) {
        // No charge is claimed either way: the id may name a payment of another key.
        return telling(toolError(`No report to fetch: ${noKey}`));
      }
      return telling(
        receiptResult(await lookUpReceipt(options.client, options.payer, id as Hex), id),
      );
    },
  );
  server.registerTool(
    "close_channel",
    {
      title: "Close the payment channel (free)",
      description: `Closes the session's x402 payment channel (check and deep pay through one when the server offers it, unless PRESEND_CHANNEL=off): the server claims what the checks were charged and sends the rest of the deposit back to the PRESEND_PRIVATE_KEY account on Base. Costs nothing. What came back is credited to this session's spend cap; the next paid check opens a new channel with a new deposit. ${cap}`,
      inputSchema: {},
      outputSchema: {
        transaction: z.string().describe("The refund's transaction on Base."),
        refunded: z
          .string()
          .nullable()
          .describe("USDC base units sent back (null when the answer did not say)."),
      },
      annotations: { readOnlyHint: false, destructiveHint: false, openWorldHint: true },
    },
    async () => {
      // Without a key there is no channel of this session's (the client would say none is
      // configured, which reads as PRESEND_CHANNEL=off).
      if (options.payer === null) {
        return telling(toolError(`The channel was not closed: ${noKey} Charged: no.`));
      }
      const closed = await options.client.closeChannel();
      if (closed.type === "failed") {
        return telling(
          toolError(`The channel was not closed: ${sentence(closed.message)} Charged: no.`),
        );
      }
      const back =
        closed.refunded === null
          ? "The rest of the deposit was sent back, the amount unstated, so the spend cap was not credited."
          : `${formatUsdc(closed.refunded)} came back to the payer; the session's spend cap gets it back (never more than this session's deposits left).`;
      return telling({
        content: [{ type: "text", text: `Channel closed in ${closed.transaction}. ${back}` }],
        structuredContent: { transaction: closed.transaction, refunded: closed.refunded },
      });
    },
  );
  paidTool(
    "check",
    "Check an address on one chain (paid)",
    "Pre-send safety check of an EVM address on one chain: checksum, wallet or contract, outgoing transactions, balances, gas, and a verdict (ok, caution, warn, danger) with a next action.",
  );
  paidTool(
    "deep",
    "Deep-check an address on five chains (paid)",
    "Deep pre-send check across base, ethereum, arbitrum, optimism and polygon: everything check reports plus wrong-network detection and token-mismatch flags.",
  );
  return server;
}

function toolResult(
  result: PaidResult<Report | DeepReport>,
  tool: "check" | "deep",
  asked: { address: string; chain: string; from?: string },
): CallToolResult {
  switch (result.type) {
    case "report":
      return reportAnswer(result);
    case "refused":
      // Without a key the client's own sentence says less than `noKey`, which names the setting.
      return toolError(
        `Refused to pay (${result.code}): ${result.code === "no_signer" ? noKey : sentence(result.message)} Charged: no.`,
      );
    case "not_charged":
      // x402's code for a payer short of USDC says less than the client's sentence, which names
      // the address and the amount: the code is left out.
      if (result.status === 402 && result.code.endsWith("_insufficient_balance")) {
        return toolError(`The payment was refused: ${result.message} Charged: no.`);
      }
      return toolError(
        `The check failed (${result.code}${result.status ? `, HTTP ${result.status}` : ""}): ${sentence(result.message)}${result.code === channelOutOfStep ? " (The MCP server's PRESEND_BASE_RPC_URL gives it that access; PRESEND_CHANNEL=off pays each check on its own.)" : ""} Charged: no.`,
      );
    case "unrecovered":
      return toolError(
        `${withCharge(result.message, result.charged)} To fetch the report: call receipt with ${JSON.stringify({ id: result.authorization.nonce })} (free; if it says not decided yet, call it again a minute later).${
          result.paymentId === null
            ? ""
            : ` Or call ${tool} again with ${JSON.stringify({ ...asked, paymentId: result.paymentId })}: the same report, never charged twice (payment id ${result.paymentId}).`
        }`,
      );
    case "forged":
      return toolError(
        `Forged report refused: ${result.message} It is not shown and must not be trusted. Charged: ${result.charged === true ? "yes" : "unknown"}${result.settlement ? ` (settlement ${result.settlement.transaction})` : ""}.`,
      );
  }
}

/** A verified report as the paid tools (and receipt) answer it. */
function reportAnswer(
  result: Extract<PaidResult<Report | DeepReport>, { type: "report" }>,
): CallToolResult {
  const { report, settlement } = result;
  const text = [
    `${report.verdict.level.toUpperCase()}: ${report.verdict.headline}`,
    `Next: ${report.verdict.next}`,
    "",
    report.report,
    "",
    `Paid: settlement ${settlement.transaction} on ${settlement.network}${result.recovered ? " (report recovered through /receipts)" : ""}.`,
  ].join("\n");
  return {
    content: [{ type: "text", text }],
    structuredContent: {
      level: report.verdict.level,
      headline: report.verdict.headline,
      next: report.verdict.next,
      text: report.report,
      settlement: {
        transaction: settlement.transaction,
        network: settlement.network,
        payer: settlement.payer,
      },
      recovered: result.recovered,
      paymentId: result.paymentId,
      report: report as unknown as Record<string, unknown>,
    },
  };
}

/** The report a receipt lookup got, as check answers it; otherwise an error that says the charge. */
function receiptResult(result: ReceiptResult, id: string): CallToolResult {
  switch (result.type) {
    case "report":
      return reportAnswer({ ...result, paymentId: null });
    case "not_charged":
      // x402's code for a payer short of USDC says less than the client's sentence, which names
      // the address and the amount: the code is left out.
      if (result.status === 402 && result.code.endsWith("_insufficient_balance")) {
        return toolError(`The payment was refused: ${result.message} Charged: no.`);
      }
      return toolError(`No report: ${sentence(result.message)} Charged: no.`);
    case "receipt_unavailable":
      return toolError(
        `No report yet (${result.code}): ${sentence(result.message)} Charged: unknown. Call receipt again with ${JSON.stringify({ id })} in a minute.`,
      );
    case "forged":
      return toolError(
        `Forged report refused: ${result.message} It is not shown and must not be trusted. Charged: unknown.`,
      );
  }
}

/** The message with the charge stated once (the client's message may already state it). */
function withCharge(message: string, charged: true | "unknown"): string {
  const stated = `Charged: ${charged === true ? "yes" : "unknown"}.`;
  return message.includes(stated) ? message : `${message} ${stated}`;
}

/**
 * A message ended as one sentence before the charge is stated after it: the client's messages
 * end with a period or with none ("fetch failed", "HTTP 502"), so the text never reads
 * "malformed.. Charged" nor "fetch failed Charged".
 */
function sentence(message: string): string {
  const trimmed = message.trimEnd();
  return /[.!?]["')]*$/.test(trimmed) ? trimmed : `${trimmed}.`;
}

/** `work`'s outcome, or `late` once `ms` have passed without it (the work goes on). */
async function within<T>(work: Promise<T>, ms: number): Promise<T | typeof late> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<typeof late>((resolve) => {
        timer = setTimeout(() => resolve(late), ms);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

/** A duration as the tool texts say it: "5 min", "90 s". */
function keptFor(ms: number): string {
  return ms >= 60_000 && ms % 60_000 === 0 ? `${ms / 60_000} min` : `${Math.round(ms / 1000)} s`;
}

function toolError(text: string): CallToolResult {
  return { isError: true, content: [{ type: "text", text }] };
}
