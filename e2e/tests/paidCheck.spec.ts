import { expect, test } from "../fixtures/test";
import { clickBadgeButton, waitForBadge } from "../helpers/badge";
import { demoAddress } from "../helpers/demo";
import { dappFields, pasteInto } from "../helpers/enterAddress";

test("paid check of the active demo EOA: ok verdict, the payer paid exactly $0.01", async ({
  api,
  dapp,
  wallet,
}) => {
  const demo = demoAddress(api.world, "active-eoa-on-base");
  const payer = wallet.account.address;
  const payTo = api.world.accounts.payTo.address;
  const before = { payer: await api.usdcOnBase(payer), payTo: await api.usdcOnBase(payTo) };
  await pasteInto(dapp, dappFields.input, demo.address);
  await waitForBadge(dapp, (b) => b.visible && b.status === "valid");
  await clickBadgeButton(dapp, "check");
  const badge = await waitForBadge(
    dapp,
    (b) => "verdict-level" in b.byTestId || b.state === "failed" || b.state === "refused",
    20_000,
  );
  console.log(JSON.stringify(badge, null, 1));
  expect(badge.byTestId["verdict-level"]).toBe("ok");
  expect(await api.usdcOnBase(payer)).toBe(before.payer - 10_000n);
  expect(await api.usdcOnBase(payTo)).toBe(before.payTo + 10_000n);
});
