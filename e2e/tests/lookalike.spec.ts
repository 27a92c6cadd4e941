import { expect, test } from "../fixtures/test";
import { waitForBadge } from "../helpers/badge";
import { dappFields, pasteInto } from "../helpers/enterAddress";
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
  const badge = await waitForBadge(dapp, (b) => b.visible && "lookalike" in b.byTestId);
  expect(badge.byTestId.lookalike).toContain(used);
  expect(badge.byTestId.lookalike).toContain("Danger");
  expect(wallet.signRequests()).toEqual([]);
});

test("the very address checked before is not a lookalike", async ({ dapp, serviceWorker }) => {
  await seedCheckedAddress(serviceWorker, used);
  await dapp.reload();
  await pasteInto(dapp, dappFields.input, used);
  const badge = await waitForBadge(dapp, (b) => b.visible && b.status === "valid");
  expect(badge.byTestId.lookalike).toBeUndefined();
});
