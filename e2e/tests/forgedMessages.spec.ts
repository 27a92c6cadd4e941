import { expect, test } from "../fixtures/test";
import { waitForBadge } from "../helpers/badge";
import { dappFields, pasteInto } from "../helpers/enterAddress";

// The page shares the MAIN world with the bridge and sees every frame. These are the attacks a
// page can mount without the bridge key; none may lead to a signature request.
test("forged bridge frames and synthetic clicks never reach the wallet", async ({
  dapp,
  wallet,
}) => {
  await pasteInto(dapp, dappFields.input, "0xd8dA6BF26964aF9D7eEd9e03E53415D37aA96045");
  await waitForBadge(dapp, (b) => b.visible);
  await dapp.evaluate(() => {
    // 1. Ask for the bridge key again, as the bridge did at start.
    let leaked = false;
    window.addEventListener("presend:bridge-key", () => {
      leaked = true;
    });
    window.dispatchEvent(new CustomEvent("presend:bridge-hello"));
    // 2. A sign request to the bridge, and a replay of a frame with a made-up mac.
    const typedData = JSON.stringify({
      domain: { chainId: 8453 },
      types: {},
      primaryType: "X",
      message: {},
    });
    window.postMessage(
      {
        presend: "bridge",
        to: "main",
        id: "forged-1",
        body: JSON.stringify({ id: "f", kind: "sign", typedData }),
        mac: "00".repeat(32),
      },
      "*",
    );
    // 3. A click on the badge's buttons: the root is closed, and synthetic clicks are untrusted.
    const host = document.querySelector("presend-badge");
    host?.dispatchEvent(new MouseEvent("click", { bubbles: true, composed: true }));
    (window as unknown as { leaked: boolean }).leaked = leaked;
  });
  await dapp.waitForTimeout(500);
  expect(await dapp.evaluate(() => (window as unknown as { leaked: boolean }).leaked)).toBe(false);
  expect(wallet.signRequests()).toEqual([]);
  expect(wallet.requests.map((r) => r.method)).not.toContain("eth_requestAccounts");
});
