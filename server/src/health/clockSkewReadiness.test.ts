import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  devnetAccounts,
  devnetClient,
  mintStablecoin,
  startWorld,
  type World,
} from "@presend/devnet";
import { chains } from "@presend/shared/chains/chains";
import { toClientEvmSigner } from "@x402/evm";
import { registerExactEvmScheme } from "@x402/evm/exact/client";
import { wrapFetchWithPayment, x402Client } from "@x402/fetch";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  type FacilitatorService,
  startFacilitatorService,
} from "../facilitatorService/startFacilitatorService";
import { type PaidStack, startPaidStack } from "../payments/testing/startPaidStack";
import { maxClockSkewSeconds } from "./clockCheck";

// A world of its own: the test moves its Base chain's clock, which every other file would feel.
describe("a clock off the payment chain's, on the real API and facilitator service", () => {
  let world: World;
  let stack: PaidStack;
  let facilitator: FacilitatorService;
  const payer = privateKeyToAccount(generatePrivateKey());

  /** Moves the local Base's clock `seconds` ahead of this machine's and mines on it. */
  const moveChainClock = async (seconds: number) => {
    const base = devnetClient("base", world.chains.base.rpcUrl);
    await base.request({ method: "evm_increaseTime", params: [seconds] } as never);
    await base.request({ method: "evm_mine", params: [] } as never);
  };

  beforeAll(async () => {
    world = await startWorld();
    await mintStablecoin(devnetClient("base", world.chains.base.rpcUrl), {
      token: chains.base.usdc.address,
      minter: privateKeyToAccount(world.accounts.faucet.privateKey),
      to: payer.address,
      amount: 1_000_000n,
    });
    stack = await startPaidStack({ world });
    facilitator = await startFacilitatorService({
      PORT: "0",
      FACILITATOR_PRIVATE_KEY: world.accounts.facilitator.privateKey,
      RPC_URLS_BASE: world.chains.base.rpcUrl,
      FACILITATOR_AUTH_TOKEN: "clock-skew-test-token-0123456789abcdef",
      FACILITATOR_JOURNAL_FILE: join(mkdtempSync(join(tmpdir(), "presend-journal-")), "j.json"),
      LOG_LEVEL: "silent",
    });
  });
  afterAll(async () => {
    await facilitator?.stop();
    await stack?.stop();
    await world?.stop();
  });

  it("pays a correct payer while the chain's clock is a few seconds off this machine's", async () => {
    // What NTP can leave between machines: the payer and the server judge by this clock, the
    // token contract by the chain's.
    await moveChainClock(5);
    const client = new x402Client();
    registerExactEvmScheme(client, { signer: toClientEvmSigner(payer) });
    // The wrapper hands over a Request of its own making: read it as the app's own request.
    const pay = wrapFetchWithPayment(async (input, init) => {
      if (typeof input === "string" || input instanceof URL) return stack.app.request(input, init);
      const { url, method, headers } = input;
      return stack.app.request(url, { method, headers, body: await input.text() });
    }, client);
    const before = await stack.usdcBalance(payer.address);
    const response = await pay("http://presend.test/check", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ address: devnetAccounts.activeOnBase.address }),
    });
    expect(response.status).toBe(200);
    expect(await stack.usdcBalance(payer.address)).toBeLessThan(before);
  });

  it("reports the API and the facilitator service unready, naming the skew, once it is past the tolerance", async () => {
    // Read for the first time here (readiness keeps a reading for seconds): 5 + 20 s ahead.
    await moveChainClock(20);
    const api = await stack.app.request("/readyz");
    expect(api.status).toBe(503);
    expect(JSON.stringify(await api.json())).toMatch(
      new RegExp(`clock is 2\\d s behind .*more than ${maxClockSkewSeconds} s`),
    );
    const service = await fetch(`${facilitator.url}/readyz`);
    expect(service.status).toBe(503);
    expect(JSON.stringify(await service.json())).toMatch(/clock is 2\d s behind/);
  });
});
