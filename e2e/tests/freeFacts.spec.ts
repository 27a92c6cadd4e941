import { expect, test } from "../fixtures/test";
import { badgeStyle, expandBadge, waitForBadge } from "../helpers/badge";
import { activeEoa, demoAddress } from "../helpers/demo";
import { pasteInto } from "../helpers/enterAddress";
import { levelColour } from "../helpers/paidCheck";
import { screenshot } from "../helpers/screenshot";

// What the extension can know for free, before any paid check, through the page wallet's own
// connection: whether a contract is deployed at the address (eth_getCode on the wallet's
// chain). The page can forge what its wallet answers, so such a fact may add a warning, never
// make anything look safer. A field that asks for a token or contract gets no such warning.

test("a contract the wallet's node reports is a free warning: 'Contract · not checked'", async ({
  api,
  dapp,
  wallet,
}) => {
  wallet.state.rpcUrls = { 8453: api.world.chains.base.rpcUrl };
  const nft = demoAddress(api.world, "nft-collection-on-base").address;
  await pasteInto(dapp, "#to", nft);
  const chip = await waitForBadge(dapp, (b) => b.visible && b.status === "valid");
  expect(chip.localLevel).toBe("neutral");
  await expandBadge(dapp);
  const card = await waitForBadge(dapp, (b) => "free-contract" in b.byTestId);
  expect(card.byTestId["local-decision"]).toContain("Check with the recipient");
  expect(card.byTestId["free-contract"]).toContain("a contract on Base");
  expect(await badgeStyle(dapp, "local-decision", "background-color")).toBe(levelColour("warn"));
  expect(wallet.requestsOf("eth_getCode")).toHaveLength(1);
  await screenshot(dapp, "card-free-contract-warning");
  await dapp.keyboard.press("Escape");
  const collapsed = await waitForBadge(dapp, (b) => !b.expanded);
  expect(collapsed.chip).toBe("Contract · not checked");
  expect(await badgeStyle(dapp, "chip", "background-color")).toBe(levelColour("warn"));
});

test("a wallet that reports no code makes nothing look safer: the chip stays neutral, never green", async ({
  api,
  dapp,
  wallet,
}) => {
  wallet.state.rpcUrls = { 8453: api.world.chains.base.rpcUrl };
  await pasteInto(dapp, "#to", activeEoa(api.world));
  await expandBadge(dapp);
  await waitForBadge(dapp, () => wallet.requestsOf("eth_getCode").length === 1);
  const card = await waitForBadge(dapp, (b) => "local-decision" in b.byTestId);
  expect(card.byTestId["local-decision"]).toContain("Not checked yet");
  expect(await badgeStyle(dapp, "local-decision", "background-color")).toBe(levelColour("neutral"));
  // The USDC contract is danger for free whatever the wallet answers (here: no wallet RPC at all).
  wallet.state.rpcUrls = {};
  await dapp.locator("#to").fill("");
  await pasteInto(dapp, "#to", "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913");
  await waitForBadge(dapp, (b) => b.localLevel === "danger");
  const usdc = await expandBadge(dapp);
  expect(usdc.byTestId["local-decision"]).toContain("Don't send");
});

test("fields that ask for a token or contract get no recipient warnings for a contract", async ({
  api,
  dapp,
  dappUrl,
  wallet,
}) => {
  wallet.state.rpcUrls = { 8453: api.world.chains.base.rpcUrl };
  await dapp.goto(`${dappUrl}token.html`);
  const usdc = "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913";
  await pasteInto(dapp, "#tokenAddress", usdc);
  const chip = await waitForBadge(dapp, (b) => b.visible && b.status === "valid");
  expect({ chip: chip.chip, level: chip.localLevel }).toEqual({
    chip: "Checksum OK · not checked",
    level: "neutral",
  });
  await expandBadge(dapp);
  const card = await waitForBadge(dapp, (b) => "contract-field" in b.byTestId);
  expect(card.text).not.toContain("Ask the recipient");
  expect(card.text).not.toContain("Don't send");
  await screenshot(dapp, "card-token-field");

  // A contract in the spender field: what it asks for, so no warning from the wallet's node.
  const nft = demoAddress(api.world, "nft-collection-on-base").address;
  await pasteInto(dapp, "#spender", nft);
  await expandBadge(dapp);
  await waitForBadge(dapp, (b) => b.byTestId.address === nft && "contract-field" in b.byTestId);
  await dapp.waitForTimeout(500);
  const spender = await waitForBadge(dapp, (b) => b.byTestId.address === nft);
  expect(spender.byTestId["free-contract"]).toBeUndefined();

  // The same token contract pasted where a recipient goes is danger, for free.
  await pasteInto(dapp, "#transferTo", usdc);
  const recipient = await waitForBadge(dapp, (b) => b.visible && b.localLevel === "danger");
  expect(recipient.chip).toBe("Token contract");
});
