import { devnetAccounts, devnetPrivateKey } from "@presend/devnet";
import {
  badSignatureMessage,
  signedTooLateMessage,
} from "@presend/extension/payments/paidCheckOutcome";
import { chains } from "@presend/shared/chains/chains";
import {
  createPublicClient,
  createWalletClient,
  erc20Abi,
  type Hex,
  http,
  parseAbi,
  type TypedDataDefinition,
} from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { expect, test } from "../fixtures/test";
import { createTestWallet, type TestWallet } from "../fixtures/testWallet";
import { finished, waitForBadge } from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import { getExtensionStorage, setExtensionSettings } from "../helpers/extensionStorage";
import {
  balances,
  pasteAndCheck,
  pasteAndClick,
  pasteAndClickUntilWalletAsks,
  payerAndPayTo,
} from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";

// The person's wallet misbehaving the ways real wallets do, while a paid check pays through it:
// the real API refuses what cannot pay, the local Base chain shows what moved, and the card says
// what happened and what to do.

// Another account of the same wallet (the person switched to it while the prompt was open).
const otherAccount = privateKeyToAccount(generatePrivateKey());

const badSignatures: Record<string, (wallet: TestWallet) => void> = {
  "signs with another account it switched to mid-prompt": (wallet) => {
    wallet.state.answerSignature = async (typedData) => {
      await wallet.emit("accountsChanged", [otherAccount.address]);
      return otherAccount.signTypedData(typedData);
    };
  },
  "signs other terms than it was asked (a dollar)": (wallet) => {
    wallet.state.answerSignature = (typedData) =>
      wallet.account.signTypedData({
        ...typedData,
        message: { ...(typedData.message as Record<string, unknown>), value: "1000000" },
      } as TypedDataDefinition);
  },
  "signs for Ethereum's chain id": (wallet) => {
    wallet.state.answerSignature = (typedData) =>
      wallet.account.signTypedData({
        ...typedData,
        domain: { ...typedData.domain, chainId: 1 },
      } as TypedDataDefinition);
  },
  "answers a short signature": (wallet) => {
    wallet.state.answerSignature = async () => "0x1234";
  },
  "answers something that is no signature": (wallet) => {
    wallet.state.answerSignature = async () => ({ signature: null });
  },
};

for (const [name, misbehave] of Object.entries(badSignatures)) {
  test(`the wallet ${name}: the card says the signature did not pay and what to do, no settings offered; nothing charged, counted or kept`, async ({
    api,
    dapp,
    wallet,
    serviceWorker,
  }) => {
    misbehave(wallet);
    const who = payerAndPayTo(api, wallet);
    const before = await balances(api, who);

    const badge = await pasteAndCheck(dapp, activeEoa(api.world), "check");

    expect(badge.state).toBe("failed");
    expect(badge.text).toContain(badSignatureMessage);
    // presend was paid nothing, and the card says no more than that: whoever the wallet answered
    // through may hold the signature (the page rewriting the request, below).
    expect(badge.text).not.toContain("Nothing was charged.");
    // No x402 reason code, and no settings button: no setting mends a wallet's signature.
    expect(badge.text).not.toMatch(/invalid_|Malformed|Open settings/);
    expect(wallet.signRequests()).toHaveLength(1);
    expect(await balances(api, who)).toEqual(before);
    expect([undefined, 0]).toContain(
      (
        (await getExtensionStorage(serviceWorker, "spendLedger")) as
          | { spentUnits?: number }
          | undefined
      )?.spentUnits,
    );
    expect((await getExtensionStorage(serviceWorker, "pendingRecoveries")) ?? []).toEqual([]);
    if (name.startsWith("signs with another account")) {
      await screenshot(dapp, "card-wallet-signature-mismatch");
    }
  });
}

test("a page that rewrites the wallet's request on its way: the card said what the wallet must show and to reject anything else, and after the signature it never says nothing was charged", async ({
  api,
  dapp,
  wallet,
}) => {
  // The page owns the wallet's provider object: it changes the payee and the amount of the
  // typed data presend asks for, and keeps the signature the wallet gives (the person signed
  // without reading the wallet's window).
  const thief = privateKeyToAccount(generatePrivateKey());
  await dapp.evaluate((thiefAddress) => {
    type Provider = { request(args: { method: string; params?: unknown[] }): Promise<unknown> };
    const provider = (window as unknown as { testWalletProvider: Provider }).testWalletProvider;
    const honest = provider.request.bind(provider);
    const kept = window as unknown as { kept?: { typedData: string; signature: unknown } };
    provider.request = async ({ method, params }) => {
      if (method !== "eth_signTypedData_v4" || !params) return honest({ method, params });
      const typedData = JSON.parse(params[1] as string);
      typedData.message.to = thiefAddress;
      typedData.message.value = "50000000";
      const changed = JSON.stringify(typedData);
      const signature = await honest({ method, params: [params[0], changed] });
      kept.kept = { typedData: changed, signature };
      return signature;
    };
  }, thief.address);
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);

  const sign = await pasteAndClickUntilWalletAsks(dapp, wallet, activeEoa(api.world), "check");
  const asking = await waitForBadge(dapp, (b) => b.state === "waiting-wallet");
  expect(asking.byTestId["reject-other-terms"]).toContain(
    "If your wallet shows another amount, another recipient or another kind of request, reject it",
  );
  await screenshot(dapp, "card-waiting-wallet-reject-other-terms");
  sign();
  const badge = await waitForBadge(dapp, finished, 30_000);
  expect(badge.state).toBe("failed");
  expect(badge.text).toContain(badSignatureMessage);
  expect(badge.text).not.toContain("Nothing was charged.");
  await screenshot(dapp, "card-page-rewrote-wallet-request");
  // presend was paid nothing.
  expect((await balances(api, who)).payTo).toBe(before.payTo);

  // What the card warned of is real: the page's signature moves the person's USDC to the page.
  const kept = (await dapp.evaluate(
    () => (window as unknown as { kept: { typedData: string; signature: Hex } }).kept,
  )) as { typedData: string; signature: Hex };
  const signed = JSON.parse(kept.typedData).message as Record<string, string>;
  const rpc = http(api.world.chains.base.rpcUrl);
  // Any account with gas relays it: the local world's faucet here.
  const relayer = createWalletClient({
    account: privateKeyToAccount(api.world.accounts.faucet.privateKey),
    transport: rpc,
  });
  const base = createPublicClient({ transport: rpc });
  const hash = await relayer.writeContract({
    chain: null,
    address: chains.base.usdc.address,
    abi: parseAbi([
      "function transferWithAuthorization(address from, address to, uint256 value, uint256 validAfter, uint256 validBefore, bytes32 nonce, bytes signature)",
    ]),
    functionName: "transferWithAuthorization",
    args: [
      signed.from as `0x${string}`,
      signed.to as `0x${string}`,
      BigInt(signed.value as string),
      BigInt(signed.validAfter as string),
      BigInt(signed.validBefore as string),
      signed.nonce as Hex,
      kept.signature,
    ],
  });
  expect((await base.waitForTransactionReceipt({ hash })).status).toBe("success");
  expect(
    await base.readContract({
      address: chains.base.usdc.address,
      abi: erc20Abi,
      functionName: "balanceOf",
      args: [thief.address],
    }),
  ).toBe(50_000_000n);
});

test("a wallet on a chain presend does not know switches to Base to sign and back to that chain; paid once", async ({
  api,
  dapp,
  wallet,
}) => {
  wallet.state.chainId = 424242;
  await dapp.reload();
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  const badge = await pasteAndCheck(dapp, activeEoa(api.world), "check");
  expect(badge.level).toBe("ok");
  const switches = wallet
    .requestsOf("wallet_switchEthereumChain")
    .map((r) => (r.params as Array<{ chainId: string }>)[0]?.chainId);
  expect(switches).toEqual(["0x2105", "0x67932"]);
  expect(wallet.state.chainId).toBe(424242);
  expect((await balances(api, who)).payer).toBe((before.payer ?? 0n) - 10_000n);
});

const paysOnce: Record<string, (wallet: TestWallet) => void> = {
  "shares many accounts (the first pays)": (wallet) => {
    wallet.state.accounts = [wallet.account.address, otherAccount.address];
  },
  "shares its account in lowercase": (wallet) => {
    wallet.state.accounts = [wallet.account.address.toLowerCase()];
  },
  "disconnects from the site (accountsChanged to none) while its prompt is open, then signs": (
    wallet,
  ) => {
    wallet.state.answerSignature = async (typedData) => {
      await wallet.emit("accountsChanged", []);
      return wallet.account.signTypedData(typedData);
    };
  },
  "gives the recovery byte of its signature as 0 or 1 (y parity), as some hardware-wallet bridges do":
    (wallet) => {
      wallet.state.answerSignature = async (typedData) => {
        const signature = await wallet.account.signTypedData(typedData);
        const parity = Number.parseInt(signature.slice(-2), 16) - 27;
        return `${signature.slice(0, -2)}0${parity}`;
      };
    },
  "moves to Ethereum (chainChanged) while its prompt is open, then signs": (wallet) => {
    wallet.state.answerSignature = async (typedData) => {
      wallet.state.chainId = 1;
      await wallet.emit("chainChanged", "0x1");
      return wallet.account.signTypedData(typedData);
    };
  },
};

for (const [name, misbehave] of Object.entries(paysOnce)) {
  test(`the wallet ${name}: the signature it gave pays once and the verdict shows`, async ({
    api,
    dapp,
    wallet,
  }) => {
    misbehave(wallet);
    await dapp.reload();
    const who = payerAndPayTo(api, wallet);
    const before = await balances(api, who);
    const badge = await pasteAndCheck(dapp, activeEoa(api.world), "check");
    expect(badge.level).toBe("ok");
    expect(wallet.signRequests()).toHaveLength(1);
    const after = await balances(api, who);
    expect(after.payer).toBe((before.payer ?? 0n) - 10_000n);
    expect(after.payTo).toBe((before.payTo ?? 0n) + 10_000n);
  });
}

test("a wallet that shares no account asks for no signature and charges nothing, and says so", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
}) => {
  wallet.state.accounts = [];
  await dapp.reload();
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  const badge = await pasteAndCheck(dapp, activeEoa(api.world), "check");
  expect(badge.state).toBe("failed");
  expect(badge.text).toContain("Your wallet did not share its account, so nothing was paid.");
  expect(badge.text).toContain("Nothing was charged.");
  expect(wallet.requestsOf("eth_requestAccounts")).toHaveLength(1);
  expect(wallet.signRequests()).toEqual([]);
  expect(await balances(api, who)).toEqual(before);
  expect(await getExtensionStorage(serviceWorker, "spendLedger")).toBeUndefined();
});

/** The wallet signs with its key after `seconds`, as a hardware wallet the person unlocks first. */
function slowWallet(wallet: TestWallet, seconds: number) {
  wallet.state.answerSignature = async (typedData) => {
    await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
    return wallet.account.signTypedData(typedData) as Promise<Hex>;
  };
}

test("a hardware wallet that takes 40 s to sign: the card waits for it, and the signature pays once", async ({
  api,
  dapp,
  wallet,
}) => {
  test.setTimeout(120_000);
  slowWallet(wallet, 40);
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  await pasteAndClick(dapp, activeEoa(api.world), "check");
  await expect.poll(() => wallet.signRequests().length, { timeout: 20_000 }).toBe(1);
  await dapp.waitForTimeout(30_000);
  expect((await waitForBadge(dapp, () => true)).state).toBe("waiting-wallet");
  const badge = await waitForBadge(dapp, finished, 40_000);
  expect(badge.level).toBe("ok");
  expect((await balances(api, who)).payer).toBe((before.payer ?? 0n) - 10_000n);
});

test("a hardware wallet that takes 70 s, past the payment's minute: the card says it signed too late and what to do, not a raw server code; nothing charged", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
}) => {
  test.setTimeout(150_000);
  slowWallet(wallet, 70);
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  await pasteAndClick(dapp, activeEoa(api.world), "check");
  const badge = await waitForBadge(dapp, finished, 100_000);
  expect(badge.state).toBe("failed");
  expect(badge.text).toContain(signedTooLateMessage);
  // "it paid nothing" is said of presend's payment; no more is claimed of a signature given.
  expect(badge.text).not.toContain("Nothing was charged.");
  expect(badge.text).not.toMatch(/invalid_|Open settings/);
  expect(await balances(api, who)).toEqual(before);
  expect((await getExtensionStorage(serviceWorker, "pendingRecoveries")) ?? []).toEqual([]);
  await screenshot(dapp, "card-wallet-signed-too-late");
});

// A wallet of its own holding $0.02 of USDC on Base: more than one check, less than a deposit.
const withTwoCents = test.extend({
  // biome-ignore lint/correctness/noEmptyPattern: Playwright requires the destructuring form.
  wallet: async ({}, use) => {
    await use(createTestWallet({ privateKey: generatePrivateKey() }));
  },
});

withTwoCents(
  "a channel deposit larger than the account's USDC (which would pay one check) is told as the deposit, with the setting that mends it; set to 0, the check pays once",
  async ({ api, dapp, wallet, serviceWorker, startSibling }) => {
    const base = createWalletClient({
      account: privateKeyToAccount(devnetAccounts.payer.privateKey),
      transport: http(api.world.chains.base.rpcUrl),
    });
    const funded = await base.writeContract({
      chain: null,
      address: chains.base.usdc.address,
      abi: erc20Abi,
      functionName: "transfer",
      args: [wallet.account.address, 20_000n],
    });
    await createPublicClient({
      transport: http(api.world.chains.base.rpcUrl),
    }).waitForTransactionReceipt({ hash: funded });
    expect(await api.usdcOnBase(wallet.account.address)).toBe(20_000n);
    const channels = await startSibling({
      CHANNELS: "on",
      RECEIVER_AUTHORIZER_KEY: devnetPrivateKey("e2e-channel-authorizer-two-cents"),
    });
    await setExtensionSettings(serviceWorker, { apiUrl: channels.url });

    const badge = await pasteAndCheck(dapp, activeEoa(api.world), "check");
    expect(badge.state).toBe("failed");
    expect(badge.text).toContain("does not hold enough USDC on Base for the channel deposit");
    expect(badge.text).toContain("Set a smaller deposit in the settings");
    expect(badge.text).toContain("Nothing was charged.");
    expect(badge.text).toContain("Open settings");
    expect(await api.usdcOnBase(wallet.account.address)).toBe(20_000n);
    await screenshot(dapp, "card-deposit-above-usdc");

    await setExtensionSettings(serviceWorker, { apiUrl: channels.url, channelDepositUnits: 0 });
    const paid = await pasteAndCheck(dapp, activeEoa(api.world), "check");
    expect(paid.level).toBe("ok");
    expect(await api.usdcOnBase(wallet.account.address)).toBe(10_000n);
  },
);

test("a wallet that does not know Base adds it with Base's public parameters (as MetaMask asks), signs there and goes back; paid once", async ({
  api,
  dapp,
  wallet,
}) => {
  wallet.state.chainId = 1;
  wallet.state.knownChains = new Set([1, 42161]);
  await dapp.reload();
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  const badge = await pasteAndCheck(dapp, activeEoa(api.world), "check");
  expect(badge.state).not.toBe("failed");
  expect(wallet.state.addedChains).toEqual([
    expect.objectContaining({ chainId: "0x2105", chainName: "Base" }),
  ]);
  expect(wallet.signRequests()).toHaveLength(1);
  // Back where the dApp had it.
  expect(wallet.state.chainId).toBe(1);
  expect((await balances(api, who)).payer).toBe((before.payer ?? 0n) - 10_000n);
});

test("a wallet that does not know Base, and the person does not add it: the card says so and what to do; nothing signed or charged", async ({
  api,
  dapp,
  wallet,
}) => {
  wallet.state.chainId = 1;
  wallet.state.knownChains = new Set([1, 42161]);
  wallet.state.refuseAddChain = true;
  await dapp.reload();
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  const badge = await pasteAndCheck(dapp, activeEoa(api.world), "check");
  expect(badge.state).toBe("rejected");
  expect(badge.text).toContain("You declined to switch your wallet to Base.");
  expect(badge.text).toContain("Nothing was charged.");
  expect(wallet.signRequests()).toEqual([]);
  expect(wallet.state.chainId).toBe(1);
  expect(await balances(api, who)).toEqual(before);
});

const walletErrors = [
  // A Ledger whose Ethereum app refuses the typed data: the wallet's words are the clue.
  [-32603, "Ledger device: UNKNOWN_ERROR (0x6a80)", "a hardware wallet: unlocked"],
  [
    4100,
    "The requested account and/or method has not been authorized by the user.",
    "Allow this site",
  ],
  [4200, "Method not supported", "with another wallet"],
] as const;

for (const [code, said, advice] of walletErrors) {
  test(`the wallet answers the signature request with its own error ${code}: the card says what it means, with the wallet's words, and offers no settings; nothing charged`, async ({
    api,
    dapp,
    wallet,
  }) => {
    wallet.state.answerSignature = async () => {
      throw Object.assign(new Error(said), { code });
    };
    const who = payerAndPayTo(api, wallet);
    const before = await balances(api, who);
    const badge = await pasteAndCheck(dapp, activeEoa(api.world), "check");
    expect(badge.state).toBe("failed");
    expect(badge.text).toContain(`(it said: "${said}")`);
    expect(badge.text).toContain(advice);
    expect(badge.text).not.toContain("An internal error was received");
    expect(badge.text).not.toContain("Open settings");
    expect(await balances(api, who)).toEqual(before);
    if (code === -32603) await screenshot(dapp, "card-wallet-own-error");
  });
}
