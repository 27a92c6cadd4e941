import { expect, test } from "../fixtures/test";
import { waitForBadge } from "../helpers/badge";
import { dappFields, pasteInto, typeInto } from "../helpers/enterAddress";

const valid = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
const addresses = {
  valid: { value: valid, label: "checksum valid" },
  missing: { value: valid.toLowerCase(), label: "no checksum" },
  // One letter's case flipped: still 40 hex characters, but the EIP-55 checksum fails.
  invalid: { value: valid.replace("d8dA", "d8Da"), label: "wrong checksum: likely a typo" },
} as const;

for (const [fieldName, selector] of Object.entries(dappFields)) {
  for (const [status, { value, label }] of Object.entries(addresses)) {
    test(`paste into ${fieldName}: ${status} checksum -> badge`, async ({ dapp }) => {
      await pasteInto(dapp, selector, value);
      const badge = await waitForBadge(dapp, (b) => b.visible && b.status === status);
      expect(badge.byTestId.checksum).toBe(label);
      expect(badge.byTestId.address).toBe(value);
      // A mistyped address never costs a payment: no paid buttons.
      expect(badge.text.includes("Check $0.01")).toBe(status !== "invalid");
    });
  }
}

test("typing an address key by key shows the badge", async ({ dapp }) => {
  await typeInto(dapp, dappFields.input, valid);
  const badge = await waitForBadge(dapp, (b) => b.visible && b.status === "valid");
  expect(badge.text).toContain("Deep check $0.05");
});

test("a field the page adds later is watched too", async ({ dapp }) => {
  await dapp.evaluate(() => (window as unknown as { addLateField: () => boolean }).addLateField());
  await pasteInto(dapp, "#late-input", valid.toLowerCase());
  await waitForBadge(dapp, (b) => b.visible && b.status === "missing");
});

test("an address one character short is called out before any payment", async ({ dapp }) => {
  await pasteInto(dapp, dappFields.input, valid.slice(0, -1));
  const badge = await waitForBadge(dapp, (b) => b.visible && b.status === "malformed");
  expect(badge.text).not.toContain("Check $0.01");
});

test("the chain is preselected from the dApp wallet", async ({ dapp, wallet }) => {
  wallet.state.chainId = 42161;
  await dapp.reload();
  await pasteInto(dapp, dappFields.input, valid);
  const badge = await waitForBadge(dapp, (b) => b.visible && b.chain === "arbitrum");
  expect(badge.text).toContain("Chain preselected from your wallet");
  // Reading the chain never prompts and never asks for a signature.
  expect(wallet.requests.map((r) => r.method)).not.toContain("eth_requestAccounts");
  expect(wallet.signRequests()).toEqual([]);
});

test("without a known wallet chain the badge checks base", async ({ dapp }) => {
  await pasteInto(dapp, dappFields.textarea, valid);
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
