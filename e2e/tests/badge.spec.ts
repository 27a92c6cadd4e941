import { expect, test } from "../fixtures/test";
import { badgeStyle, expandBadge, waitForBadge } from "../helpers/badge";
import { dappFields, pasteInto, typeInto } from "../helpers/enterAddress";
import { levelColour } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";

const valid = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const addresses = {
  // Unchecked is neutral: a correct checksum says the address was not mistyped, not that it is safe.
  valid: { value: valid, chip: "Checksum OK · not checked", level: "neutral" },
  missing: { value: valid.toLowerCase(), chip: "No checksum", level: "caution" },
  // One letter's case flipped: still 40 hex characters, but the EIP-55 checksum fails.
  invalid: { value: valid.replace("d8dA", "d8Da"), chip: "Wrong checksum", level: "danger" },
} as const;

for (const [fieldName, selector] of Object.entries(dappFields)) {
  for (const [status, { value, chip, level }] of Object.entries(addresses)) {
    test(`paste into ${fieldName}: ${status} checksum -> chip, card on click`, async ({ dapp }) => {
      await pasteInto(dapp, selector, value);
      const collapsed = await waitForBadge(dapp, (b) => b.visible && b.status === status);
      expect({ chip: collapsed.chip, level: collapsed.localLevel }).toEqual({ chip, level });
      expect(await badgeStyle(dapp, "chip", "background-color")).toBe(levelColour(level));
      // Collapsed, the badge is only the chip: no card content, nothing to cover the form.
      expect(collapsed.byTestId.address).toBeUndefined();
      const card = await expandBadge(dapp);
      expect(card.byTestId.address).toBe(value);
      // A mistyped address never costs a payment: no paid buttons.
      expect(card.text.includes("Check $0.01")).toBe(status !== "invalid");
      if (fieldName === "input") {
        // The picture shows the card settled: the wallet's chain arrives just after it opens.
        if (status !== "invalid") {
          await waitForBadge(dapp, (b) => b.text.includes("Chain preselected from your wallet"));
        }
        await screenshot(dapp, `card-${status}`);
      }
    });
  }
}

// What is knowable without the network is said for free; where nobody holds a key (zero, burn,
// precompile) no payment is offered at all, and for a token contract it is not the primary action.
const sinks = {
  zero: { value: "0x0000000000000000000000000000000000000000", chip: "Zero address" },
  burn: { value: "0x000000000000000000000000000000000000dEaD", chip: "Burn address" },
  precompile: { value: "0x0000000000000000000000000000000000000001", chip: "Precompile" },
  stablecoin: { value: "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", chip: "Token contract" },
} as const;

for (const [kind, { value, chip }] of Object.entries(sinks)) {
  test(`${kind} address: free danger before any payment`, async ({ dapp }) => {
    await pasteInto(dapp, dappFields.input, value);
    const collapsed = await waitForBadge(dapp, (b) => b.visible && b.chip === chip);
    expect(collapsed.localLevel).toBe("danger");
    if (kind === "burn") await screenshot(dapp, "chip-danger-burn");
    const card = await expandBadge(dapp);
    expect(card.byTestId["local-decision"]).toContain("Don't send");
    expect(await badgeStyle(dapp, "local-decision", "background-color")).toBe(
      levelColour("danger"),
    );
    expect(card.text.includes("Check $0.01")).toBe(kind === "stablecoin");
    if (kind === "stablecoin")
      expect(card.byTestId.special).toContain("USDC token contract on Base");
    if (kind === "burn") await screenshot(dapp, "card-danger-burn");
  });
}

test("typing an address key by key shows the chip", async ({ dapp }) => {
  await typeInto(dapp, dappFields.input, valid);
  await waitForBadge(dapp, (b) => b.visible && b.status === "valid");
  await screenshot(dapp, "chip-ok");
  const card = await expandBadge(dapp);
  expect(card.text).toContain("Deep check $0.05");
});

test("a field the page adds later is watched too", async ({ dapp }) => {
  await dapp.evaluate(() => (window as unknown as { addLateField: () => boolean }).addLateField());
  await pasteInto(dapp, "#late-input", valid.toLowerCase());
  await waitForBadge(dapp, (b) => b.visible && b.status === "missing");
});

test("an address one character short is called out before any payment", async ({ dapp }) => {
  await pasteInto(dapp, dappFields.input, valid.slice(0, -1));
  await waitForBadge(dapp, (b) => b.visible && b.status === "malformed");
  const card = await expandBadge(dapp);
  expect(card.text).not.toContain("Check $0.01");
});

test("the chain is preselected from the dApp wallet", async ({ dapp, wallet }) => {
  wallet.state.chainId = 42161;
  await dapp.reload();
  await pasteInto(dapp, dappFields.input, valid);
  await waitForBadge(dapp, (b) => b.visible);
  await expandBadge(dapp);
  const badge = await waitForBadge(dapp, (b) => b.visible && b.chain === "arbitrum");
  expect(badge.text).toContain("Chain preselected from your wallet");
  // Reading the chain never prompts and never asks for a signature.
  expect(wallet.requests.map((r) => r.method)).not.toContain("eth_requestAccounts");
  expect(wallet.signRequests()).toEqual([]);
});

test("without a known wallet chain the badge checks base", async ({ dapp }) => {
  await pasteInto(dapp, dappFields.textarea, valid);
  await expandBadge(dapp);
  // The test wallet starts on Base; either way the preselection is base here.
  await waitForBadge(dapp, (b) => b.visible && b.chain === "base");
});

test("the page cannot read into the badge", async ({ dapp }) => {
  await pasteInto(dapp, dappFields.input, valid);
  await waitForBadge(dapp, (b) => b.visible);
  const fromPage = await dapp.evaluate(() => {
    const host = document.querySelector("presend-badge");
    return { found: host !== null, shadowRoot: host?.shadowRoot ?? null };
  });
  expect(fromPage).toEqual({ found: true, shadowRoot: null });
});
