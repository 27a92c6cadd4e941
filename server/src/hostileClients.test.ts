import { connect } from "node:net";
import { devnetAccounts, devnetClient, devnetPrivateKey } from "@presend/devnet";
import { sharedPaymentWorld } from "@presend/devnet/testing";
import { ErrorBodySchema } from "@presend/shared/api/errors";
import { receiptMessage } from "@presend/shared/api/receiptMessage";
import { chains, nativeUsdcDomain } from "@presend/shared/chains/chains";
import { decodePaymentRequiredHeader, encodePaymentSignatureHeader } from "@x402/core/http";
import type { PaymentPayload, PaymentRequired, PaymentRequirements } from "@x402/core/types";
import { authorizationTypes, toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { x402Client } from "@x402/fetch";
import fc from "fast-check";
import { type Address, type Hex, keccak256, parseAbi, toHex } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort } from "./http/freePort";
import { type DrainingServer, serveWithDrain } from "./lifecycle/serveWithDrain";
import { type PaidStack, startPaidStack } from "./payments/testing/startPaidStack";

// A hostile or careless client of the API as `npm start` serves it: the composed paid stack on
// the real local world, behind the same Node listener (serveWithDrain), reached over raw TCP so
// Node's parser and node-server's adapter see every byte as sent. Every answer must be an answer
// (never a 5xx, never silence), every error JSON with a documented code, nothing internal in any
// of them, and no bad input may cost the payer anything: the chain is read after each payment.
const { world, lane } = sharedPaymentWorld();
const payer = privateKeyToAccount(world.accounts.payer.privateKey);
const target = devnetAccounts.activeOnBase.address;
const body = JSON.stringify({ address: target });
const receiverAuthorizerKey = devnetPrivateKey(`lane-${lane.index}-hostile-authorizer`);
const eip3009 = parseAbi([
  "function authorizationState(address authorizer, bytes32 nonce) view returns (bool)",
]);
// What must never reach a caller: a loopback RPC URL, a file path, a stack frame, a raw tx.
const internals = /127\.0\.0\.1:\d+|\/tmp\/|node:internal|\bat [\w.<>]+ \(|0x02f8/;

type Answer = { status: number; headers: Record<string, string>; body: string };

/**
 * Writes `bytes` on one connection (the sending side left open, as a client awaiting its
 * answers does) and reads until the server closes it, or `waitMs` passes.
 */
function exchange(port: number, bytes: string, waitMs = 10_000) {
  return new Promise<{ text: string; closed: boolean }>((resolve) => {
    const socket = connect(port, "127.0.0.1", () => socket.write(bytes));
    let text = "";
    socket.setEncoding("latin1");
    socket.on("data", (chunk) => {
      text += chunk;
    });
    socket.on("error", () => {});
    const timer = setTimeout(() => {
      socket.destroy();
      resolve({ text, closed: false });
    }, waitMs);
    socket.on("close", () => {
      clearTimeout(timer);
      resolve({ text, closed: true });
    });
  });
}

/** The HTTP/1.1 answers in `text` (read as latin1), in order (interim 100 Continue left out). */
function answersIn(text: string, method: string): Answer[] {
  const answers: Answer[] = [];
  let rest = text;
  while (rest.startsWith("HTTP/1.")) {
    const end = rest.indexOf("\r\n\r\n");
    if (end < 0) break;
    const [statusLine = "", ...lines] = rest.slice(0, end).split("\r\n");
    const status = Number(statusLine.split(" ")[1]);
    const headers = Object.fromEntries(
      lines.map((line) => {
        const at = line.indexOf(":");
        return [line.slice(0, at).trim().toLowerCase(), line.slice(at + 1).trim()];
      }),
    );
    rest = rest.slice(end + 4);
    let answerBody = "";
    if (method === "HEAD" || status === 100 || status === 204 || status === 304) {
      // No body follows.
    } else if (headers["transfer-encoding"] === "chunked") {
      for (;;) {
        const lineEnd = rest.indexOf("\r\n");
        const size = Number.parseInt(rest.slice(0, lineEnd), 16);
        rest = rest.slice(lineEnd + 2);
        if (!size) {
          rest = rest.slice(2);
          break;
        }
        answerBody += rest.slice(0, size);
        rest = rest.slice(size + 2);
      }
    } else if (headers["content-length"] !== undefined) {
      const length = Number(headers["content-length"]);
      answerBody = rest.slice(0, length);
      rest = rest.slice(length);
    } else {
      answerBody = rest;
      rest = "";
    }
    // Read as latin1 (a character per byte, so lengths count bytes); the body is UTF-8.
    const utf8 = Buffer.from(answerBody, "latin1").toString("utf8");
    if (status !== 100) answers.push({ status, headers, body: utf8 });
  }
  return answers;
}

/** A request as bytes: `headers` in order (a name may repeat), then the body as framed. */
function requestBytes(
  head: string,
  headers: Array<[string, string]>,
  payload = "",
  framing: "length" | "chunked" | "none" = "length",
): string {
  const lines = [head, ...headers.map(([name, value]) => `${name}: ${value}`)];
  const bytes = Buffer.from(payload, "utf8");
  if (framing === "chunked") {
    lines.push("Transfer-Encoding: chunked");
    const chunk = bytes.length ? `${bytes.length.toString(16)}\r\n${payload}\r\n` : "";
    return `${lines.join("\r\n")}\r\n\r\n${chunk}0\r\n\r\n`;
  }
  if (framing === "length" && payload) lines.push(`Content-Length: ${bytes.length}`);
  return `${lines.join("\r\n")}\r\n\r\n${payload}`;
}

describe("hostile clients over raw HTTP, against the composed paid API", () => {
  let stack: PaidStack;
  let server: DrainingServer;
  let port: number;
  const base = devnetClient("base", world.chains.base.rpcUrl);

  beforeAll(async () => {
    port = await freePort();
    // One chain whose endpoint is a closed port: a paid check of it must fail uncharged.
    const deadRpc = `http://127.0.0.1:${await freePort()}`;
    stack = await startPaidStack({
      world,
      receiverAuthorizerKey,
      publicUrl: `http://127.0.0.1:${port}`,
      rpcUrls: { polygon: [deadRpc] },
    });
    server = await serveWithDrain(stack.app, { port });
  });
  afterAll(async () => {
    await server?.drain(1_000);
    await stack?.stop();
  });

  /** Requests the app answered with a 5xx so far (also those whose client never read one). */
  const serverErrors = async () => {
    const metrics = await (await fetch(`${server.url}/metrics`)).text();
    return [...metrics.matchAll(/presend_http_requests_total\{[^}]*status="5\d\d"\} (\d+)/g)]
      .map((match) => Number(match[1]))
      .reduce((sum, count) => sum + count, 0);
  };
  const expectNothingInternal = (text: string) =>
    expect(text.replaceAll(`127.0.0.1:${port}`, "127.0.0.1:PORT")).not.toMatch(internals);

  describe("no input produces a 5xx, silence, a body without a code, or a leak", () => {
    const paths = [
      "/validate",
      "/check",
      "/deep",
      `/receipts/0x${"a".repeat(64)}`,
      `/receipts/${target}/0x${"b".repeat(64)}`,
      "/.well-known/x402",
      "/openapi.json",
      "/health",
      "/livez",
      "/readyz",
      "/favicon.svg",
      "/diligence",
      "/",
    ];
    const oddSegment = fc.constantFrom(
      "..",
      ".",
      "",
      "%2e%2e",
      "%00",
      "%0d%0a",
      "%",
      "%zz",
      "%C0%AF",
      "%ff",
      "__proto__",
      "constructor",
      "toString",
      "VALIDATE",
    );
    const path = fc.oneof(
      { weight: 6, arbitrary: fc.constantFrom(...paths) },
      fc
        .tuple(fc.constantFrom(...paths), fc.constantFrom("/", "//", "/..", "/x/..", ";x"))
        .map(([known, suffix]) => known + suffix),
      fc
        .array(fc.oneof(oddSegment, fc.webSegment()), { maxLength: 4 })
        .map((segments) => `/${segments.join("/")}`),
    );
    const value = fc.oneof(
      fc.constantFrom(
        target,
        target.toLowerCase(),
        "",
        "%00",
        "%0d%0a",
        "%",
        "%E0%80",
        "__proto__",
        "constructor",
        "toString",
        `0x${"١".repeat(40)}`,
        `0x${"０".repeat(40)}`,
        "a".repeat(10_000),
      ),
      fc.string({ maxLength: 50 }).map(encodeURIComponent),
    );
    const query = fc
      .array(
        fc.tuple(
          fc.constantFrom("address", "address", "chain", "signature", "address[]", "__proto__"),
          value,
        ),
        { maxLength: 4 },
      )
      .map((pairs) => (pairs.length ? `?${pairs.map(([k, v]) => `${k}=${v}`).join("&")}` : ""));
    const b64 = (text: string) => Buffer.from(text).toString("base64");
    const paymentValue = fc.oneof(
      fc.constantFrom(
        "x",
        b64("null"),
        b64("[]"),
        b64('{"x402Version":2}'),
        b64('{"x402Version":1,"scheme":"exact","network":"base","payload":{}}'),
        b64('{"x402Version":"2","payload":{"signature":1}}'),
        b64('{"__proto__":{"x402Version":2},"constructor":1}'),
        b64(
          '{"x402Version":2,"accepted":{"scheme":"exact"},"payload":{"signature":"0x","authorization":{"from":1,"value":[]}}}',
        ),
        b64(
          '{"x402Version":2,"accepted":{"scheme":"batch-settlement"},"payload":{"type":"voucher","channelConfig":null,"voucher":{"channelId":1,"maxClaimableAmount":{},"signature":null}}}',
        ),
        "A".repeat(15_500),
      ),
      fc.json({ maxDepth: 3 }).map(b64),
      fc.base64String({ maxLength: 300 }),
    );
    const header = fc.oneof(
      fc.tuple(fc.constantFrom("PAYMENT-SIGNATURE", "X-Payment", "SIGN-IN-WITH-X"), paymentValue),
      fc.tuple(
        fc.constant("Content-Type"),
        fc.constantFrom(
          "application/json",
          "application/json; charset=utf-16",
          "APPLICATION/JSON",
          "text/plain",
          "application/jsonx",
          "multipart/form-data; boundary=x",
        ),
      ),
      fc.tuple(fc.constant("Content-Encoding"), fc.constantFrom("gzip", "identity", "br, gzip")),
      fc.tuple(fc.constant("Accept"), fc.constantFrom("text/html", "*/*;q=0", "application/xml")),
      fc.tuple(fc.constant("Expect"), fc.constantFrom("100-continue", "200-ok")),
      fc.tuple(fc.constant("Origin"), fc.constantFrom("null", "https://dapp.example")),
      fc.tuple(fc.constant("If-None-Match"), fc.constantFrom("*", 'W/"x"')),
      fc.tuple(fc.constant("X-Request-Id"), fc.constantFrom("a\tb", "x".repeat(300), "ok-1")),
    );
    const payload = fc.oneof(
      fc.constant(""),
      fc.constant(body),
      fc.json({ maxDepth: 3 }),
      fc.string({ maxLength: 200 }),
      fc.string({ minLength: 4_097, maxLength: 5_000 }),
      fc
        .record({
          address: value,
          chain: fc.constantFrom("base", "__proto__", "constructor", "toString", ""),
          from: fc.option(value, { nil: undefined }),
        })
        .map((request) => JSON.stringify(request)),
    );
    const request = fc.record({
      method: fc.constantFrom(
        "GET",
        "GET",
        "POST",
        "POST",
        "HEAD",
        "OPTIONS",
        "PUT",
        "DELETE",
        "PATCH",
        "TRACE",
        "SEARCH",
      ),
      path,
      query,
      headers: fc.array(header, { maxLength: 5 }),
      payload,
      framing: fc.constantFrom("length", "chunked", "none"),
      version: fc.constantFrom("1.1", "1.1", "1.0"),
    });

    it("answers every generated request at once, each error as JSON with a documented code", async () => {
      const seen = new Map<number, number>();
      await fc.assert(
        fc.asyncProperty(request, async (generated) => {
          const { method, version, framing } = generated;
          const bytes = requestBytes(
            `${method} ${generated.path}${generated.query} HTTP/${version}`,
            [["Host", `127.0.0.1:${port}`], ["Connection", "close"], ...generated.headers],
            generated.payload,
            version === "1.0" && framing === "chunked" ? "length" : framing,
          );
          const { text, closed } = await exchange(port, bytes);
          // Connection: close asked for: every request ends with an answer and a closed
          // connection (a body left unframed is read as the next request, and refused).
          expect(closed).toBe(true);
          const answers = answersIn(text, method);
          expect(answers.length).toBeGreaterThan(0);
          for (const answer of answers) {
            seen.set(answer.status, (seen.get(answer.status) ?? 0) + 1);
            expect(answer.status).toBeLessThan(500);
            if (answer.status >= 400 && answer.status !== 402 && method !== "HEAD") {
              expect(answer.headers["content-type"]).toContain("application/json");
              const error = ErrorBodySchema.safeParse(JSON.parse(answer.body));
              expect(error.error?.issues ?? []).toEqual([]);
            }
          }
          expectNothingInternal(text);
        }),
        { numRuns: 1000 },
      );
      // The generators must reach every kind of answer, or the property proves little.
      for (const status of [200, 204, 400, 402, 404, 413, 415, 417]) {
        expect(seen.get(status) ?? 0).toBeGreaterThan(0);
      }
      // Nor did the app answer a 5xx that no client read (a body cut off, a client gone).
      expect(await serverErrors()).toBe(0);
    }, 180_000);

    it("counts no 5xx for bodies that stop before their end, however they stop", async () => {
      const chunkedHead = `POST /check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n`;
      const cuts = [
        // Framing Node refuses after the headers were read: the app is already reading.
        `POST /check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: gzip\r\n\r\n`,
        `${chunkedHead}5\r\n{"add\r\nzz\r\n`,
        // A chunked body, and a sized one, whose client leaves in the middle.
        `${chunkedHead}5\r\n{"add\r\n`,
        `POST /check HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"add`,
      ];
      for (const bytes of cuts) await exchange(port, bytes, 300);
      expect(await serverErrors()).toBe(0);
    });
  });

  describe("payments: refused before any charge, and the chain shows no transfer", () => {
    const balances = () =>
      Promise.all([
        stack.usdcBalance(payer.address),
        stack.usdcBalance(stack.world.accounts.payTo.address),
      ]);
    const used = (nonce: Hex) =>
      base.readContract({
        address: chains.base.usdc.address,
        abi: eip3009,
        functionName: "authorizationState",
        args: [payer.address, nonce],
      });
    const nonceOf = (payload: PaymentPayload) =>
      (payload.payload as { authorization: { nonce: Hex } }).authorization.nonce;
    const paidRequest = (
      path: string,
      paymentHeaders: Array<[string, string]>,
      requestBody = body,
      type = "application/json",
    ) =>
      requestBytes(
        `POST ${path} HTTP/1.1`,
        [
          ["Host", `127.0.0.1:${port}`],
          ["Connection", "close"],
          ["Content-Type", type],
          ...paymentHeaders,
        ],
        requestBody,
      );
    const send = async (bytes: string) => {
      const { text } = await exchange(port, bytes);
      expectNothingInternal(text);
      const [answer] = answersIn(text, "POST");
      if (!answer) throw new Error(`no answer to ${bytes.slice(0, 80)}`);
      return answer;
    };
    const challenge = async (path: string): Promise<PaymentRequired> => {
      const answer = await send(paidRequest(path, []));
      expect(answer.status).toBe(402);
      return decodePaymentRequiredHeader(answer.headers["payment-required"] ?? "");
    };
    const client = (account = payer) => {
      const x402 = new x402Client();
      registerExactEvmScheme(x402, { signer: toClientEvmSigner(account) });
      // A careless client: it signs whatever terms it is given.
      return x402.setSpendControls(false);
    };
    /** A payment signed over `tamper`ed terms that claims the server's own. */
    const signed = async (
      path: string,
      tamper: (terms: PaymentRequirements) => PaymentRequirements = (terms) => terms,
      claimTampered = false,
    ): Promise<PaymentPayload> => {
      const required = await challenge(path);
      const offered = required.accepts[0] as PaymentRequirements;
      const payload = await client().createPaymentPayload({
        ...required,
        accepts: [tamper(offered)],
      });
      return claimTampered ? payload : { ...payload, accepted: offered };
    };
    /** An authorization over the server's terms with a validity window of our choosing. */
    const signedWindow = async (validAfter: bigint, validBefore: bigint, label: string) => {
      const required = await challenge("/check");
      const accepted = required.accepts[0] as PaymentRequirements;
      const authorization = {
        from: payer.address,
        to: accepted.payTo as Address,
        value: BigInt(accepted.amount),
        validAfter,
        validBefore,
        nonce: keccak256(toHex(`hostile-${label}-${Date.now()}`)),
      };
      const signature = await payer.signTypedData({
        domain: {
          ...nativeUsdcDomain,
          chainId: 8453,
          verifyingContract: accepted.asset as Address,
        },
        types: authorizationTypes,
        primaryType: "TransferWithAuthorization",
        message: authorization,
      });
      return {
        x402Version: 2,
        resource: required.resource,
        accepted,
        extensions: required.extensions,
        payload: {
          signature,
          authorization: {
            ...authorization,
            value: `${authorization.value}`,
            validAfter: `${validAfter}`,
            validBefore: `${validBefore}`,
          },
        },
      } as PaymentPayload;
    };
    const now = () => BigInt(Math.floor(Date.now() / 1000));
    const header = (payload: PaymentPayload): [string, string] => [
      "PAYMENT-SIGNATURE",
      encodePaymentSignatureHeader(payload),
    ];

    /** `bytes` answered with `status` (and `reason`), and nothing moved on chain. */
    const expectUncharged = async (bytes: string, status: number, reason: RegExp, nonce?: Hex) => {
      const before = await balances();
      const records = await stack.records.count();
      const answer = await send(bytes);
      expect(answer.status).toBe(status);
      expect(answer.headers["payment-response"]).toBeUndefined();
      const reasonGiven =
        status === 402
          ? decodePaymentRequiredHeader(answer.headers["payment-required"] ?? "").error
          : ErrorBodySchema.parse(JSON.parse(answer.body)).error.code;
      expect(reasonGiven).toMatch(reason);
      expect(JSON.parse(answer.body)).not.toHaveProperty("verdict");
      expect(await balances()).toEqual(before);
      expect(await stack.records.count()).toBe(records);
      if (nonce) expect(await used(nonce)).toBe(false);
    };

    it("a paid report, then its payment replayed for another address, another route, the alias", async () => {
      const payment = await signed("/check");
      const [payerBefore = 0n, payToBefore = 0n] = await balances();
      const paid = await send(paidRequest("/check", [header(payment)]));
      expect(paid.status).toBe(200);
      expect(JSON.parse(paid.body).address).toBe(target);
      expect(await balances()).toEqual([payerBefore - 10_000n, payToBefore + 10_000n]);
      const other = JSON.stringify({ address: devnetAccounts.fresh.address });
      const encoded = encodePaymentSignatureHeader(payment);
      for (const bytes of [
        paidRequest("/check", [["PAYMENT-SIGNATURE", encoded]], other),
        paidRequest("/check", [["X-Payment", encoded]], other),
        paidRequest("/deep", [["PAYMENT-SIGNATURE", encoded]]),
      ]) {
        await expectUncharged(bytes, 409, /^authorization_used$/);
      }
    });

    it("terms that differ from the offer (amount, payTo, asset, network, route) are refused", async () => {
      const elsewhere = privateKeyToAccount(generatePrivateKey()).address;
      const cases: Array<[string, PaymentPayload, RegExp]> = [
        ["/check", await signed("/check", (t) => ({ ...t, amount: "1" })), /value_mismatch$/],
        ["/check", await signed("/check", (t) => ({ ...t, amount: "1" }), true), /^No matching/],
        [
          "/check",
          await signed("/check", (t) => ({ ...t, payTo: elsewhere })),
          /recipient_mismatch$/,
        ],
        [
          "/check",
          await signed("/check", (t) => ({ ...t, asset: chains.base.usdt.address })),
          /^invalid_exact_evm_signature$/,
        ],
        [
          "/check",
          await signed("/check", (t) => ({ ...t, network: "eip155:1" }), true),
          /^No matching/,
        ],
        ["/deep", await signed("/check"), /^No matching/],
      ];
      for (const [path, payment, reason] of cases) {
        await expectUncharged(paidRequest(path, [header(payment)]), 402, reason, nonceOf(payment));
      }
    });

    it("expired, not yet valid and too long authorizations are refused", async () => {
      const cases: Array<[PaymentPayload, RegExp]> = [
        [await signedWindow(0n, now() - 10n, "expired"), /authorization_valid_before$/],
        [
          await signedWindow(now() + 3_600n, now() + 3_660n, "future"),
          /^authorization_not_yet_valid$/,
        ],
        [await signedWindow(0n, now() + 86_400n, "long"), /^authorization_valid_too_long$/],
      ];
      for (const [payment, reason] of cases) {
        await expectUncharged(
          paidRequest("/check", [header(payment)]),
          402,
          reason,
          nonceOf(payment),
        );
      }
    });

    it("a malformed payment header is never charged, whichever header carries it", async () => {
      const valid = await signed("/check");
      const encoded = encodePaymentSignatureHeader(valid);
      const b64 = (text: string) => Buffer.from(text).toString("base64");
      const wrongTypes = {
        ...valid,
        payload: {
          ...valid.payload,
          authorization: {
            ...(valid.payload as { authorization: object }).authorization,
            nonce: 7,
          },
        },
      };
      const cases: Array<[Array<[string, string]>, RegExp]> = [
        [[["PAYMENT-SIGNATURE", "not base64 at all"]], /^invalid_payment_header$/],
        [[["PAYMENT-SIGNATURE", b64("not json")]], /^invalid_payment_header$/],
        [[["X-Payment", b64(JSON.stringify(wrongTypes))]], /^invalid_payment_header$/],
        [[["PAYMENT-SIGNATURE", "A".repeat(15_500)]], /^payment_header_too_large$/],
        // Sent twice, or under both names with another value first: never the valid one alone.
        [
          [
            ["PAYMENT-SIGNATURE", encoded],
            ["PAYMENT-SIGNATURE", b64("{}")],
          ],
          /^invalid_payment_header$/,
        ],
        [
          [
            ["PAYMENT-SIGNATURE", b64("{}")],
            ["X-Payment", encoded],
          ],
          /^invalid_payment_header$/,
        ],
      ];
      for (const [headers, reason] of cases) {
        await expectUncharged(paidRequest("/check", headers), 402, reason, nonceOf(valid));
      }
      // The valid authorization was never spent by any of them: it still pays, once.
      const before = await balances();
      expect((await send(paidRequest("/check", [["PAYMENT-SIGNATURE", encoded]]))).status).toBe(
        200,
      );
      expect((await balances())[0]).toBe((before[0] ?? 0n) - 10_000n);
    });

    it("a failed check is never charged: a bad body, a wrong type, a chain that cannot be read", async () => {
      const cases: Array<[string, string, number, RegExp]> = [
        [JSON.stringify({ address: "0x12" }), "application/json", 400, /^invalid_address$/],
        [
          JSON.stringify({ address: target, chain: "__proto__" }),
          "application/json",
          400,
          /^unknown_chain$/,
        ],
        [
          JSON.stringify({ address: target, from: target }),
          "application/json",
          400,
          /^from_equals_address$/,
        ],
        [body, "text/plain", 415, /^unsupported_media_type$/],
        [
          JSON.stringify({ address: target, chain: "polygon" }),
          "application/json",
          503,
          /^chain_unavailable$/,
        ],
      ];
      for (const [requestBody, type, status, code] of cases) {
        const payment = await signed("/check");
        await expectUncharged(
          paidRequest("/check", [header(payment)], requestBody, type),
          status,
          code,
          nonceOf(payment),
        );
      }
    });

    it("a paid check pipelined before a broken request gets its report, in its place, and its receipt", async () => {
      const payment = await signed("/check");
      const [payerBefore = 0n] = await balances();
      const { text } = await exchange(
        port,
        `${paidRequest("/check", [header(payment)]).replace("Connection: close\r\n", "")}GARBAGE / HTTP/1.1\r\n\r\n`,
      );
      const answers = answersIn(text, "POST");
      // The report first, where the client looks for its check's answer; then the refusal.
      expect(answers.map((answer) => answer.status)).toEqual([200, 400]);
      const report = JSON.parse(answers[0]?.body ?? "");
      expect(report.address).toBe(target);
      expect(JSON.parse(answers[1]?.body ?? "").error.code).toBe("malformed_request");
      expect((await balances())[0]).toBe(payerBefore - 10_000n);
      const nonce = nonceOf(payment);
      const signature = await payer.signMessage({ message: receiptMessage(nonce) });
      const kept = await fetch(
        `${server.url}/receipts/${payer.address}/${nonce}?signature=${signature}`,
      );
      expect(kept.status).toBe(200);
      expect((await kept.json()).report).toEqual(report);
    });

    it("a client that leaves at once is charged only with its report kept; one that leaves mid-body never", async () => {
      const payment = await signed("/check");
      const [payerBefore = 0n] = await balances();
      await exchange(port, paidRequest("/check", [header(payment)]), 5);
      const nonce = nonceOf(payment);
      const signature = await payer.signMessage({ message: receiptMessage(nonce) });
      const receipt = () =>
        fetch(`${server.url}/receipts/${payer.address}/${nonce}?signature=${signature}`);
      // The request runs on without its client: whatever it decides, the chain and the record
      // agree once it has (a report kept for a charge, no record without one).
      let kept = await receipt();
      for (let tries = 0; tries < 60 && kept.status !== 200; tries++) {
        await new Promise((done) => setTimeout(done, 250));
        kept = await receipt();
      }
      const charged = (await balances())[0] !== payerBefore;
      expect(await used(nonce)).toBe(charged);
      expect(kept.status).toBe(charged ? 200 : 404);
      if (charged) expect((await kept.json()).report.address).toBe(target);

      const cutOff = await signed("/check");
      const before = await balances();
      await exchange(port, paidRequest("/check", [header(cutOff)]).slice(0, -10), 200);
      expect(await balances()).toEqual(before);
      expect(await used(nonceOf(cutOff))).toBe(false);
    });
  });
});
