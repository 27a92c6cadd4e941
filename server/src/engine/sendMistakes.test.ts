import {
  artifacts,
  createAndUseSimpleAccount,
  demoAddresses,
  demoAddressListFile,
  demoContracts,
  devnetAccounts,
  devnetClient,
  lookalikeOf,
  mintStablecoin,
  recipientKinds,
  startWorld,
  type World,
  worldRpcUrls,
} from "@presend/devnet";
import type { Level } from "@presend/shared/api/report";
import { type ChainName, chains } from "@presend/shared/chains/chains";
import { type Address, getAddress, parseEther, parseUnits, zeroAddress } from "viem";
import { entryPoint08Address } from "viem/account-abstraction";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createChainReader } from "../chain/createChainReader";
import { createHistoryReader } from "../chain/history/createHistoryReader";
import { loadAddressLists } from "../lists/loadAddressLists";
import { type FaultyRpc, startFaultyRpc } from "../payments/testing/startFaultyRpc";
import { createEngine, type Engine } from "./createEngine";

// Where people lose money to who they send to and where: address poisoning, the wrong network,
// the wrong token. The history is real transactions on the local chains, made as attackers make
// them; the engine is built as composeServer builds it (facts, history riding in the facts
// batch, the demo address list) and asked as the paid routes ask it, with the sender.
//
// Its own world: the victim's payments, the planted transfers and the fake token are written by
// keys made here, and the shared world belongs to files that only read it.

const usdcUnits = (amount: string) => parseUnits(amount, 6);

describe("send mistakes on real history (real anvil chains, the real engine)", () => {
  let world: World;
  let engine: Engine;
  // The same engine whose history endpoint (a proxy in front of the real base chain) refuses
  // ots_getInternalOperations, as an endpoint with only part of Otterscan's methods would.
  let engineWithoutInternalOperations: Engine;
  let faulty: FaultyRpc;
  // The same engine reading at most 20 transfers a query (the real limit is thousands): a lookalike
  // that received more, as a poisoner's address planted in many histories does, is over it.
  let engineWithSmallCap: Engine;
  const victim = privateKeyToAccount(generatePrivateKey());
  const genuine = privateKeyToAccount(generatePrivateKey());
  const poisoner = privateKeyToAccount(generatePrivateKey());
  const newcomer = privateKeyToAccount(generatePrivateKey());
  // Pays the genuine counterparty only in a token presend does not read.
  const otherTokenPayer = privateKeyToAccount(generatePrivateKey());
  // Pays in ETH only through its ERC-4337 SimpleAccount (a UserOperation: an internal call).
  const smartOwner = privateKeyToAccount(generatePrivateKey());
  const smartGenuine = privateKeyToAccount(generatePrivateKey()).address;
  let smartAccount: Address;
  // Got dust of the real USDC from a lookalike of an address it never paid in what is read.
  const dustOnlyVictim = privateKeyToAccount(generatePrivateKey());
  // Paid the genuine counterparty once, then fell for a planted lookalike: a test amount, the rest.
  const fellTwice = privateKeyToAccount(generatePrivateKey());
  // Paid the genuine counterparty on Ethereum, then a lookalike of it once on Base.
  const crossChainVictim = privateKeyToAccount(generatePrivateKey());
  const genuinePayments = 5;
  // Each lookalike keeps the genuine address's first and last 4 hex characters.
  const lookalikes = {} as Record<
    | "planted"
    | "sixAndSix"
    | "fakeToken"
    | "dust"
    | "paid"
    | "plantedOnly"
    | "smartGenuine"
    | "dustOnly"
    | "paidTwice"
    | "paidOnBase"
    | "flooded",
    Address
  >;

  beforeAll(async () => {
    world = await startWorld();
    const rpcUrls = worldRpcUrls(world);
    engine = createEngine({
      reader: createChainReader({ rpcUrls }),
      history: createHistoryReader({ rpcUrls, factsRpcUrls: rpcUrls }),
      lists: await loadAddressLists({ files: [demoAddressListFile], watch: false }),
    });
    engineWithSmallCap = createEngine({
      reader: createChainReader({ rpcUrls }),
      history: createHistoryReader({ rpcUrls, factsRpcUrls: rpcUrls, maxLogs: 20 }),
    });
    faulty = await startFaultyRpc(world.chains.base.rpcUrl);
    faulty.failingMethod = "ots_getInternalOperations";
    engineWithoutInternalOperations = createEngine({
      reader: createChainReader({ rpcUrls }),
      history: createHistoryReader({ rpcUrls: { ...rpcUrls, base: [faulty.url] } }),
    });
    const client = devnetClient("base", world.chains.base.rpcUrl);
    const faucet = privateKeyToAccount(devnetAccounts.faucet.privateKey);
    const usdc = chains.base.usdc.address;
    const abi = artifacts.PresendStablecoin.abi;
    const transfer = (
      account: Address | typeof victim,
      token: Address,
      to: Address,
      amount: bigint,
    ) =>
      client.confirm(
        client.writeContract({
          account,
          address: token,
          abi,
          functionName: "transfer",
          args: [to, amount],
        }),
      );
    /**
     * The stablecoin's published code under another name, deployed by `owner`, `holder` given
     * `amount` of it: a fake USDC, or a token presend does not read.
     */
    const deployToken = async (
      owner: typeof faucet,
      token: { name: string; symbol: string; version: string },
      holder: Address,
      amount: bigint,
    ) => {
      const deployed = await client.confirm(
        client.deployContract({
          account: owner,
          abi,
          bytecode: artifacts.PresendStablecoin.bytecode,
        }),
      );
      const address = deployed.contractAddress as Address;
      await client.confirm(
        client.writeContract({
          account: owner,
          address,
          abi,
          functionName: "initialize",
          args: [token.name, token.symbol, token.version, 6, owner.address],
        }),
      );
      await mintStablecoin(client, { token: address, minter: owner, to: holder, amount });
      return address;
    };
    for (const account of [victim, genuine, poisoner, newcomer, otherTokenPayer]) {
      await client.confirm(
        client.sendTransaction({ account: faucet, to: account.address, value: parseEther("1") }),
      );
    }
    // The genuine counterparty only receives: a savings wallet, paid 5 times by the victim.
    await mintStablecoin(client, {
      token: usdc,
      minter: faucet,
      to: victim.address,
      amount: usdcUnits("1000"),
    });
    for (let payment = 0; payment < genuinePayments; payment++) {
      await transfer(victim, usdc, genuine.address, usdcUnits("10"));
    }

    const hex = genuine.address.slice(2).toLowerCase();
    lookalikes.planted = lookalikeOf(genuine.address, "send mistakes: planted");
    lookalikes.sixAndSix = getAddress(`0x${hex.slice(0, 6)}${"5".repeat(28)}${hex.slice(-6)}`);
    lookalikes.fakeToken = lookalikeOf(genuine.address, "send mistakes: fake token");
    lookalikes.dust = lookalikeOf(genuine.address, "send mistakes: dust");
    lookalikes.paid = lookalikeOf(genuine.address, "send mistakes: paid");

    // Zero-value transferFrom(victim, lookalike, 0) of the real USDC: no signature of the victim.
    for (const lookalike of [lookalikes.planted, lookalikes.sixAndSix, lookalikes.paid]) {
      await client.confirm(
        client.writeContract({
          account: poisoner,
          address: usdc,
          abi,
          functionName: "transferFrom",
          args: [victim.address, lookalike, 0n],
        }),
      );
    }

    // A fake USDC (same name and symbol, another address) whose Transfer "from" the victim to a
    // lookalike shows the genuine amount. A fake token emits it without any signature; here its
    // own transfer makes it, sent as the victim through anvil's impersonation.
    const fakeUsdc = await deployToken(
      poisoner,
      { name: "USD Coin", symbol: "USDC", version: "2" },
      victim.address,
      usdcUnits("10"),
    );
    await client.impersonateAccount({ address: victim.address });
    await transfer(victim.address, fakeUsdc, lookalikes.fakeToken, usdcUnits("10"));
    await client.stopImpersonatingAccount({ address: victim.address });

    // Dust of the real USDC from a lookalike to the victim (it sends through impersonation).
    await mintStablecoin(client, {
      token: usdc,
      minter: faucet,
      to: lookalikes.dust,
      amount: 5_000n,
    });
    await client.confirm(
      client.sendTransaction({ account: faucet, to: lookalikes.dust, value: parseEther("0.01") }),
    );
    await client.impersonateAccount({ address: lookalikes.dust });
    await transfer(lookalikes.dust, usdc, victim.address, 1_000n);
    await client.stopImpersonatingAccount({ address: lookalikes.dust });

    // The victim falls for one lookalike with a test payment of 1 USDC, signed with its own key.
    await transfer(victim, usdc, lookalikes.paid, usdcUnits("1"));

    // Another sender pays the genuine counterparty in a DAI-like token presend does not read, and
    // gets a lookalike planted by a zero-value transferFrom of the real USDC.
    const dai = await deployToken(
      faucet,
      { name: "Dai Stablecoin", symbol: "DAI", version: "1" },
      otherTokenPayer.address,
      usdcUnits("100"),
    );
    await transfer(otherTokenPayer, dai, genuine.address, usdcUnits("50"));
    lookalikes.plantedOnly = lookalikeOf(genuine.address, "send mistakes: planted only");
    await client.confirm(
      client.writeContract({
        account: poisoner,
        address: usdc,
        abi,
        functionName: "transferFrom",
        args: [otherTokenPayer.address, lookalikes.plantedOnly, 0n],
      }),
    );

    // The smart account pays its genuine counterparty 0.001 ETH in its first UserOperation,
    // submitted by a bundler through the real EntryPoint v0.8: the account never signs anything.
    smartAccount = await createAndUseSimpleAccount(client, {
      factory: demoContracts.simpleAccountFactoryOnBase,
      owner: smartOwner,
      bundler: privateKeyToAccount(generatePrivateKey()),
      payTo: smartGenuine,
    });
    lookalikes.smartGenuine = lookalikeOf(smartGenuine, "send mistakes: smart account");

    // Dust of the real USDC from a lookalike of the genuine counterparty to a sender that never
    // paid it in what is read (impersonated, as the dust lookalike above).
    lookalikes.dustOnly = lookalikeOf(genuine.address, "send mistakes: dust only");
    await mintStablecoin(client, {
      token: usdc,
      minter: faucet,
      to: lookalikes.dustOnly,
      amount: 5_000n,
    });
    await client.confirm(
      client.sendTransaction({
        account: faucet,
        to: lookalikes.dustOnly,
        value: parseEther("0.01"),
      }),
    );
    await client.impersonateAccount({ address: lookalikes.dustOnly });
    await transfer(lookalikes.dustOnly, usdc, dustOnlyVictim.address, 1_000n);
    await client.stopImpersonatingAccount({ address: lookalikes.dustOnly });

    // One genuine payment, a lookalike planted by transferFrom(victim, lookalike, 0), then the
    // victim pays the lookalike twice with its own key: 1 USDC to test, then the rest.
    lookalikes.paidTwice = lookalikeOf(genuine.address, "send mistakes: paid twice");
    await client.confirm(
      client.sendTransaction({ account: faucet, to: fellTwice.address, value: parseEther("1") }),
    );
    await mintStablecoin(client, {
      token: usdc,
      minter: faucet,
      to: fellTwice.address,
      amount: usdcUnits("200"),
    });
    await transfer(fellTwice, usdc, genuine.address, usdcUnits("100"));
    await client.confirm(
      client.writeContract({
        account: poisoner,
        address: usdc,
        abi,
        functionName: "transferFrom",
        args: [fellTwice.address, lookalikes.paidTwice, 0n],
      }),
    );
    await transfer(fellTwice, usdc, lookalikes.paidTwice, usdcUnits("1"));
    await transfer(fellTwice, usdc, lookalikes.paidTwice, usdcUnits("99"));

    // Three USDC payments to the genuine counterparty on Ethereum, then a test payment of 1 USDC
    // on Base to a lookalike of it.
    const ethereum = devnetClient("ethereum", world.chains.ethereum.rpcUrl);
    const ethereumUsdc = chains.ethereum.usdc.address;
    await ethereum.confirm(
      ethereum.sendTransaction({
        account: faucet,
        to: crossChainVictim.address,
        value: parseEther("1"),
      }),
    );
    await mintStablecoin(ethereum, {
      token: ethereumUsdc,
      minter: faucet,
      to: crossChainVictim.address,
      amount: usdcUnits("100"),
    });
    for (let payment = 0; payment < 3; payment++) {
      await ethereum.confirm(
        ethereum.writeContract({
          account: crossChainVictim,
          address: ethereumUsdc,
          abi,
          functionName: "transfer",
          args: [genuine.address, usdcUnits("10")],
        }),
      );
    }
    lookalikes.paidOnBase = lookalikeOf(genuine.address, "send mistakes: paid on Base");
    await client.confirm(
      client.sendTransaction({
        account: faucet,
        to: crossChainVictim.address,
        value: parseEther("1"),
      }),
    );
    await mintStablecoin(client, {
      token: usdc,
      minter: faucet,
      to: crossChainVictim.address,
      amount: usdcUnits("10"),
    });
    await transfer(crossChainVictim, usdc, lookalikes.paidOnBase, usdcUnits("1"));

    // A lookalike planted in the victim's history and in 25 others: more transfers to it than the
    // small-cap engine reads.
    lookalikes.flooded = lookalikeOf(genuine.address, "send mistakes: flooded");
    const plantedHistories = [
      victim.address,
      ...Array.from({ length: 25 }, () => privateKeyToAccount(generatePrivateKey()).address),
    ];
    for (const history of plantedHistories) {
      await client.confirm(
        client.writeContract({
          account: poisoner,
          address: usdc,
          abi,
          functionName: "transferFrom",
          args: [history, lookalikes.flooded, 0n],
        }),
      );
    }
  }, 120_000);

  afterAll(async () => {
    await faulty?.close();
    await world?.stop();
  });

  async function both(address: Address, chain: ChainName, from?: Address) {
    const input = { address, chain, ...(from && { from }) };
    const check = await engine.check(input);
    const deep = await engine.deep(input);
    if (check.type !== "report" || deep.type !== "report") throw new Error("chain unreadable");
    return { check: check.report, deep: deep.report };
  }

  describe("address poisoning", () => {
    it("the genuine counterparty the sender paid 5 times stays ok, though it never sent: those payments were the test", async () => {
      const { check, deep } = await both(genuine.address, "base", victim.address);
      for (const report of [check, deep]) {
        expect(report.verdict.level).toBe("ok");
        expect(report.verdict.next).toBe("Send as usual.");
        expect(report.verdict.reasons.map((reason) => reason.message)).toContain(
          `You paid this address ${genuinePayments} times on Base, last on ${report.checkedAt.slice(0, 10)}.`,
        );
      }
    });

    it.each([
      ["a zero-value transferFrom of the real USDC planted it", "planted", true],
      ["it shares the first 6 and last 6 hex characters", "sixAndSix", true],
      ["a fake USDC showed the victim paying it", "fakeToken", false],
      ["it sent the victim dust of the real USDC", "dust", false],
    ] as const)("a lookalike is danger with the sender: %s", async (_, which, planted) => {
      const { check, deep } = await both(lookalikes[which], "base", victim.address);
      for (const report of [check, deep]) {
        expect(report.verdict.level).toBe("danger");
        const [deciding] = report.verdict.reasons;
        expect(deciding?.code).toBe("address_poisoning");
        expect(deciding?.message).toContain(`This address imitates ${genuine.address}`);
        expect(deciding?.message.includes("A zero-value transfer")).toBe(planted);
        expect(report.verdict.next).toContain(`the one you paid is ${genuine.address}`);
        expect(report.verdict.reasons.map((reason) => reason.code)).not.toContain(
          "known_counterparty",
        );
      }
    });

    it("a lookalike the sender already paid once (the test payment a poisoner waits for) is still danger", async () => {
      const { check, deep } = await both(lookalikes.paid, "base", victim.address);
      for (const report of [check, deep]) {
        expect(report.verdict.level).toBe("danger");
        expect(report.verdict.reasons[0]).toMatchObject({
          code: "address_poisoning",
          chain: "base",
        });
        expect(report.verdict.reasons[0]?.message).toContain(
          `You paid this address once on Base (last on ${report.checkedAt.slice(0, 10)}) and ${genuine.address} ${genuinePayments} times`,
        );
        expect(report.verdict.next).toContain(`the one you paid most is ${genuine.address}`);
        expect(report.verdict.reasons.map((reason) => reason.code)).not.toContain(
          "known_counterparty",
        );
      }
    });

    it("a planted lookalike the victim paid more often than the genuine one (a test amount, then the rest) is danger, not a known counterparty", async () => {
      const { check, deep } = await both(lookalikes.paidTwice, "base", fellTwice.address);
      for (const report of [check, deep]) {
        expect(report.verdict.level).toBe("danger");
        expect(report.verdict.reasons[0]).toMatchObject({
          code: "address_poisoning",
          chain: "base",
        });
        expect(report.verdict.reasons[0]?.message).toContain(
          `You paid this address 2 times on Base (last on ${report.checkedAt.slice(0, 10)}) and ${genuine.address} once`,
        );
        expect(report.verdict.reasons[0]?.message).toContain(
          'a zero-value transfer "from" you to this address (once)',
        );
        expect(report.verdict.next).toContain(`the one it imitates is ${genuine.address}`);
        expect(report.verdict.reasons.map((reason) => reason.code)).not.toContain(
          "known_counterparty",
        );
      }
    });

    it("the genuine address of that victim is never danger pointing to the planted lookalike: warn, naming the lookalike as planted", async () => {
      const { check, deep } = await both(genuine.address, "base", fellTwice.address);
      for (const report of [check, deep]) {
        expect(report.verdict.level).toBe("warn");
        expect(report.verdict.reasons[0]?.code).toBe("paid_lookalikes");
        expect(report.verdict.reasons[0]?.message).toContain(
          `A zero-value transfer "from" you to ${lookalikes.paidTwice} was planted in your history (once)`,
        );
        expect(report.verdict.next).toBe(
          "Confirm the whole address with the recipient through another channel before you send.",
        );
        expect(report.verdict.next).not.toContain(lookalikes.paidTwice);
      }
    });

    it("deep: a lookalike paid once on Base of the address paid 3 times on Ethereum is danger, not a known counterparty", async () => {
      const { deep } = await both(lookalikes.paidOnBase, "base", crossChainVictim.address);
      expect(deep.verdict.level).toBe("danger");
      expect(deep.verdict.reasons[0]).toMatchObject({ code: "address_poisoning", chain: "base" });
      expect(deep.verdict.reasons[0]?.message).toContain(
        `and ${genuine.address} 3 times on Ethereum`,
      );
      expect(deep.verdict.next).toContain(`the one you paid most is ${genuine.address}`);
      expect(deep.verdict.reasons.map((reason) => reason.code)).not.toContain("known_counterparty");
    });

    it("a lookalike planted in more histories than a check reads is still danger: only its own fingerprint is named as unread", async () => {
      const input = { address: lookalikes.flooded, chain: "base", from: victim.address } as const;
      for (const result of [
        await engineWithSmallCap.check(input),
        await engineWithSmallCap.deep(input),
      ]) {
        if (result.type !== "report") throw new Error("chain unreadable");
        const { verdict } = result.report;
        expect(verdict.level).toBe("danger");
        expect(verdict.reasons[0]).toMatchObject({ code: "address_poisoning", chain: "base" });
        expect(verdict.next).toContain(`the one you paid is ${genuine.address}`);
        const codes = verdict.reasons.map((reason) => reason.code);
        expect(codes).not.toContain("history_unknown");
        expect(verdict.reasons.find((reason) => reason.code === "history_unread")?.message).toBe(
          "The token transfers to this address on Base could not be read (more than 20 transfers to this address in the window, more than one check reads): the address-poisoning fingerprint was not checked there, so presend cannot tell whether this address plants itself in its victims' histories.",
        );
      }
    });

    it("the genuine address in one case (no checksum) is still the known counterparty, caution only for the checksum", async () => {
      const oneCaseForms = [
        genuine.address.toLowerCase() as Address,
        `0x${genuine.address.slice(2).toUpperCase()}` as Address,
      ];
      // A random address's EIP-55 form is itself one case once in 4,000 times: checksummed then.
      for (const written of oneCaseForms.filter((form) => form !== genuine.address)) {
        const { check } = await both(written, "base", victim.address);
        expect(check.verdict.level).toBe("caution");
        expect(check.verdict.reasons[0]?.code).toBe("checksum_missing");
        expect(check.verdict.reasons.map((reason) => reason.code)).toContain("known_counterparty");
      }
    });

    it("a lookalike is never ok without the sender either, nor for a sender who never paid anyone", async () => {
      const alone = await both(lookalikes.planted, "base");
      expect([alone.check.verdict.level, alone.deep.verdict.level]).toEqual(["caution", "caution"]);
      const { check, deep } = await both(lookalikes.planted, "base", newcomer.address);
      for (const report of [check, deep]) {
        expect(report.verdict.level).toBe("caution");
        expect(report.verdict.reasons[0]?.code).toBe("first_time_recipient");
      }
    });

    it("a lookalike planted in the history of a sender whose genuine payment was in a token not read: warn, saying it was planted", async () => {
      const { check, deep } = await both(lookalikes.plantedOnly, "base", otherTokenPayer.address);
      for (const report of [check, deep]) {
        expect(report.verdict.level).toBe("warn");
        expect(report.verdict.reasons[0]).toMatchObject({
          code: "planted_in_history",
          chain: "base",
        });
        expect(report.verdict.next).toBe(
          "Do not copy this address from your history: get it from the recipient and compare every character.",
        );
      }
    });
  });

  describe("a smart account's ETH, paid in internal calls", () => {
    it("a lookalike of the address a smart account paid only in ETH (a UserOperation) is address poisoning", async () => {
      const { check, deep } = await both(lookalikes.smartGenuine, "base", smartAccount);
      for (const report of [check, deep]) {
        expect(report.verdict.level).toBe("danger");
        expect(report.verdict.reasons[0]).toMatchObject({
          code: "address_poisoning",
          chain: "base",
        });
        expect(report.verdict.reasons[0]?.message).toContain(
          `This address imitates ${smartGenuine}, which you paid once on Base`,
        );
        expect(report.chain.history?.native.internal).toMatchObject({ status: "read" });
      }
      const paid = await both(smartGenuine, "base", smartAccount);
      expect(paid.check.verdict.reasons.map((reason) => reason.code)).toContain(
        "known_counterparty",
      );
    });

    it("the gas a smart account's UserOperation prefunded to the EntryPoint is not a payment to it", async () => {
      // The account paid its missing prefund to EntryPoint v0.8 inside its UserOperation: ETH that
      // stays the account's own (its deposit there), so the EntryPoint is nobody it paid.
      const { check } = await both(entryPoint08Address, "base", smartAccount);
      const codes = check.verdict.reasons.map((reason) => reason.code);
      expect(codes).not.toContain("known_counterparty");
      expect(codes).toContain("protocol_contract");
      expect(check.verdict.level).toBe("danger");
      // It is still read as the account's one payment: the genuine counterparty, once.
      const paid = await both(smartGenuine, "base", smartAccount);
      expect(paid.check.verdict.reasons.map((reason) => reason.code)).toContain(
        "known_counterparty",
      );
    });

    it("a lookalike of the address a Safe paid in ETH (execTransaction sent by an owner) is address poisoning", async () => {
      // The demo world's Safe on base: its one transaction, sent by owner A, paid the faucet 0.01 ETH.
      const safe = demoAddresses.find((entry) => entry.label === "used-safe-on-base")?.address;
      if (!safe) throw new Error("demo Safe missing");
      const faucet = devnetAccounts.faucet.address;
      const { check, deep } = await both(lookalikeOf(faucet, "send mistakes: Safe"), "base", safe);
      for (const report of [check, deep]) {
        expect(report.verdict.level).toBe("danger");
        expect(report.verdict.reasons[0]).toMatchObject({
          code: "address_poisoning",
          chain: "base",
        });
        expect(report.verdict.reasons[0]?.message).toContain(`This address imitates ${faucet}`);
      }
    });

    it("a first-time recipient of a smart account: the message names the internal calls as read", async () => {
      const stranger = privateKeyToAccount(generatePrivateKey()).address;
      const { check } = await both(stranger, "base", smartAccount);
      const firstTime = check.verdict.reasons.find(
        (reason) => reason.code === "first_time_recipient",
      );
      expect(firstTime?.message).toMatch(
        /and the last \d+ transactions to or from you, with the ETH you sent in internal calls in the \d+ of them you took part in without signing/,
      );
    });

    it("internal calls not readable (no ots_getInternalOperations): never ok, saying the smart account's ETH history could not be read", async () => {
      const result = await engineWithoutInternalOperations.check({
        address: lookalikes.smartGenuine,
        chain: "base",
        from: smartAccount,
      });
      if (result.type !== "report") throw new Error("chain unreadable");
      const { verdict } = result.report;
      expect(verdict.level).not.toBe("ok");
      expect(verdict.reasons.map((reason) => reason.code)).toContain("internal_sends_unknown");
      expect(verdict.reasons.map((reason) => reason.message).join(" ")).toContain(
        "The ETH history of your smart account on Base could not be read",
      );
      const firstTime = verdict.reasons.find((reason) => reason.code === "first_time_recipient");
      expect(firstTime?.message).not.toMatch(/and the ETH in the last \d+ transactions/);
      expect(firstTime?.message).toContain(
        "the ETH you sent in them through internal calls was not read",
      );
    });
  });

  describe("dust from a lookalike", () => {
    it("a lookalike that sent the sender dust, no genuine payment read: warn, never ok, saying why", async () => {
      const { check, deep } = await both(lookalikes.dustOnly, "base", dustOnlyVictim.address);
      for (const report of [check, deep]) {
        expect(report.verdict.level).toBe("warn");
        expect(report.verdict.reasons[0]).toMatchObject({
          code: "dust_from_recipient",
          chain: "base",
        });
        expect(report.chain.history?.sender?.dustFromRecipient).toBe(1);
        expect(report.verdict.next).toBe(
          "Do not copy this address from your history: get it from the recipient and compare every character.",
        );
      }
    });
  });

  describe("wrong network", () => {
    const demo = (label: string) => {
      const entry = demoAddresses.find((address) => address.label === label);
      if (!entry) throw new Error(`demo address ${label} missing`);
      return entry.address;
    };

    it.each([
      [
        "a Safe deployed on Base only, sent on Polygon",
        "used-safe-on-base",
        "polygon",
        "safe_not_deployable",
      ],
      [
        "a Safe deployed on Base only, sent on Ethereum",
        "used-safe-on-base",
        "ethereum",
        "safe_not_deployable",
      ],
      [
        "an ERC-4337 account deployed on Base only, sent on Polygon",
        "used-smart-account-on-base",
        "polygon",
        "contract_elsewhere",
      ],
    ] as const)("%s: caution on a check, danger on a deep check", async (_, label, chain, code) => {
      const { check, deep } = await both(demo(label), chain, victim.address);
      expect(check.verdict.level).toBe("caution");
      expect(deep.verdict.level).toBe("danger");
      expect(deep.verdict.reasons[0]).toMatchObject({ code, chain: "base" });
      expect(deep.verdict.next).toContain(`Do not send on ${chains[chain].label}`);
    });

    it("an exchange deposit address swept on Base only, sent on Polygon: danger on a deep check", async () => {
      const deposit = devnetAccounts.exchangeDeposit.address;
      const { check, deep } = await both(deposit, "polygon", victim.address);
      expect(check.verdict.level).toBe("caution");
      expect(deep.verdict.level).toBe("danger");
      expect(deep.verdict.reasons[0]?.code).toBe("exchange_deposit_wrong_network");
    });

    it("a counterfactual account (deployed nowhere) is caution, never ok", async () => {
      const counterfactual = privateKeyToAccount(generatePrivateKey()).address;
      const { check, deep } = await both(counterfactual, "base", victim.address);
      expect([check.verdict.level, deep.verdict.level]).toEqual(["caution", "caution"]);
    });
  });

  describe("wrong token", () => {
    it("OP Mainnet's L1StandardBridge address checked on Base, where nothing is at it: danger, named as the bridge, never a deposit address", async () => {
      const bridge = recipientKinds.l1StandardBridgeOnEthereum;
      const { check, deep } = await both(bridge, "base", victim.address);
      for (const report of [check, deep]) {
        expect(report.verdict.level).toBe("danger");
        expect(report.verdict.reasons[0]).toMatchObject({
          code: "protocol_contract_elsewhere",
          chain: "base",
        });
        expect(report.verdict.headline).toBe(
          "OP Mainnet L1StandardBridge on Ethereum, not a wallet",
        );
        expect(report.verdict.reasons.map((reason) => reason.code)).not.toContain(
          "deposit_address_elsewhere",
        );
      }
      // On Ethereum, where the bridge is, it stays what its code does (warn).
      const home = await both(bridge, "ethereum", victim.address);
      expect(home.check.verdict.reasons[0]?.code).toBe("protocol_contract");
    });

    const precompiles = [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 0x100].map((index) =>
      getAddress(`0x${index.toString(16).padStart(40, "0")}`),
    );
    it.each([
      ["USDC's own address", chains.base.usdc.address, "stablecoin_contract"],
      ["Base's WETH", recipientKinds.wethOnBase, "token_contract"],
      ["the zero address", zeroAddress, "zero_address"],
      ["0x…dEaD", "0x000000000000000000000000000000000000dEaD", "burn_address"],
      ["0xdEaD…42069", "0xdEAD000000000000000042069420694206942069", "burn_address"],
      ...precompiles.map(
        (address) => [`the precompile ${address}`, address, "precompile"] as const,
      ),
    ] as const)(
      "%s is danger on Base, Ethereum and Polygon, check and deep",
      async (_, address, code) => {
        for (const chain of ["base", "ethereum", "polygon"] as const) {
          const { check, deep } = await both(address as Address, chain, victim.address);
          const levels: Level[] = [check.verdict.level, deep.verdict.level];
          expect(levels).toEqual(["danger", "danger"]);
          if (chain === "base") expect(check.verdict.reasons[0]?.code).toBe(code);
          expect(check.verdict.next).toMatch(/^Do not send/);
        }
      },
    );
  });
});
