import { expect, test } from "../fixtures/test";
import { lookalikeOf, randomAddress } from "../helpers/addresses";
import { expandBadge, waitForBadge } from "../helpers/badge";
import { dappFields, pasteInto } from "../helpers/enterAddress";
import { getExtensionStorage } from "../helpers/extensionStorage";
import { seedCheckedAddress } from "../helpers/seedHistory";

const used = "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045";
// Same first four and last four hex characters as `used`: an address-poisoning lookalike.
const lookalike = "0xd8da000000000000000000000000000000006045";

test("a lookalike of an address checked before is flagged danger, free", async ({
  dapp,
  serviceWorker,
  wallet,
}) => {
  await seedCheckedAddress(serviceWorker, used);
  await dapp.reload();
  await pasteInto(dapp, dappFields.input, lookalike);
  const chip = await waitForBadge(dapp, (b) => b.visible && b.chip === "Lookalike");
  expect(chip.localLevel).toBe("danger");
  await expandBadge(dapp);
  const badge = await waitForBadge(dapp, (b) => b.visible && "lookalike" in b.byTestId);
  expect(badge.byTestId.lookalike).toContain(used);
  expect(badge.byTestId["local-decision"]).toContain("Don't send");
  expect(wallet.signRequests()).toEqual([]);
});

test("the very address checked before is not a lookalike", async ({ dapp, serviceWorker }) => {
  await seedCheckedAddress(serviceWorker, used);
  await dapp.reload();
  await pasteInto(dapp, dappFields.input, used);
  const badge = await waitForBadge(dapp, (b) => b.visible && b.status === "valid");
  expect(badge.byTestId.lookalike).toBeUndefined();
});

test("a lookalike of an address the dApp's wallet sent USDC to is flagged danger, free", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
}) => {
  // The wallet really sends: the ERC-20 transfer lands on the local Base chain.
  wallet.state.rpcUrls = { 8453: api.world.chains.base.rpcUrl };
  const recipient = randomAddress();
  await dapp.locator(dappFields.input).fill(recipient);
  // The chip sits beside the field, so the dApp's own button takes a real click.
  await dapp.locator("#send").click();
  await expect
    .poll(() => dapp.evaluate(() => document.body.dataset.sent ?? null))
    .toMatch(/^0x[0-9a-f]{64}$/);
  await expect.poll(() => api.usdcOnBase(recipient)).toBe(1_000_000n);
  // The bridge saw the transfer's recipient in the calldata (not the token contract).
  await expect
    .poll(() => getExtensionStorage(serviceWorker, "sentRecipients"))
    .toEqual([{ address: recipient, at: expect.any(String), site: new URL(dapp.url()).origin }]);

  const poison = lookalikeOf(recipient);
  await dapp.locator(dappFields.input).fill("");
  await pasteInto(dapp, dappFields.input, poison);
  await waitForBadge(dapp, (b) => b.visible && b.chip === "Lookalike");
  await expandBadge(dapp);
  const badge = await waitForBadge(dapp, (b) => b.visible && "lookalike" in b.byTestId);
  expect(badge.byTestId.address).toBe(poison);
  expect(badge.byTestId.lookalike).toContain(recipient);
  expect(wallet.signRequests()).toEqual([]);
});
