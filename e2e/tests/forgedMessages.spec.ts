import { expect, test } from "../fixtures/test";
import { randomAddress } from "../helpers/addresses";
import {
  clickBadgeButton,
  expandBadge,
  finished,
  onBadgeElement,
  readBadge,
  waitForBadge,
} from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import { dappFields, pasteInto } from "../helpers/enterAddress";
import { getExtensionStorage } from "../helpers/extensionStorage";
import { balances, payerAndPayTo } from "../helpers/paidCheck";

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

// The same attacks with a real API behind the extension, plus a page that tries the extension's
// own message format and a bridge key of its own: no signature, no payment, nothing recorded.
test("a page forging protocol messages, a bridge key and MAC'd frames gets no signature and no payment", async ({
  api,
  dapp,
  wallet,
  serviceWorker,
}) => {
  const who = payerAndPayTo(api, wallet);
  const before = await balances(api, who);
  const target = activeEoa(api.world);
  await pasteInto(dapp, dappFields.input, target);
  await waitForBadge(dapp, (b) => b.visible && b.status === "valid");

  const seenByPage = await dapp.evaluate(
    async ({ address, attacker }) => {
      // 1. The extension's runtime is out of a page's reach (no externally_connectable).
      const runtime = (window as unknown as { chrome?: { runtime?: { sendMessage?: unknown } } })
        .chrome?.runtime?.sendMessage;
      // 2. The extension's message envelope, posted and dispatched every way a page can.
      const start = {
        presend: 1,
        type: "check.start",
        data: { session: "f".repeat(32), route: "check", address, chain: "base" },
      };
      window.postMessage(start, "*");
      for (const name of ["check.start", "presend:check.start", "presend"]) {
        window.dispatchEvent(new CustomEvent(name, { detail: start }));
        document.dispatchEvent(new CustomEvent(name, { detail: start }));
      }
      // 3. A bridge key of the page's own, then frames correctly MAC'd with it.
      const keyHex = "ab".repeat(32);
      window.dispatchEvent(new CustomEvent("presend:bridge-key", { detail: keyHex }));
      window.dispatchEvent(new CustomEvent("presend:bridge-hello"));
      const raw = Uint8Array.from(keyHex.match(/../g) ?? [], (h) => Number.parseInt(h, 16));
      const key = await crypto.subtle.importKey(
        "raw",
        raw,
        { name: "HMAC", hash: "SHA-256" },
        false,
        ["sign"],
      );
      const post = async (to: string, id: string, body: unknown) => {
        const text = JSON.stringify(body);
        const mac = new Uint8Array(
          await crypto.subtle.sign("HMAC", key, new TextEncoder().encode(`${to}\n${id}\n${text}`)),
        );
        const hex = Array.from(mac, (b) => b.toString(16).padStart(2, "0")).join("");
        window.postMessage({ presend: "bridge", to, id, body: text, mac: hex }, "*");
      };
      const typedData = JSON.stringify({
        domain: { name: "USD Coin", version: "2", chainId: 8453 },
        types: { Transfer: [{ name: "to", type: "address" }] },
        primaryType: "Transfer",
        message: { to: attacker },
      });
      await post("main", "forged-sign", { id: "s1", kind: "sign", typedData });
      await post("main", "forged-account", { id: "a1", kind: "account" });
      await post("isolated", "forged-sent", { event: "sent", addresses: [attacker] });
      await post("isolated", "forged-reply", { re: "s1", ok: true, data: { signature: "0x12" } });
      // 4. A synthetic click on the badge host (untrusted, and the root is closed).
      document
        .querySelector("presend-badge")
        ?.dispatchEvent(new MouseEvent("click", { bubbles: true, composed: true }));
      return { runtime: typeof runtime };
    },
    { address: target, attacker: randomAddress() },
  );
  await dapp.waitForTimeout(1_000);

  expect(seenByPage.runtime).toBe("undefined");
  expect(wallet.signRequests()).toEqual([]);
  expect(wallet.requests.map((r) => r.method)).not.toContain("eth_requestAccounts");
  expect(await balances(api, who)).toEqual(before);
  for (const key of ["history", "spendLedger", "sentRecipients", "pinnedAttestationKeys"]) {
    expect(await getExtensionStorage(serviceWorker, key)).toBeUndefined();
  }
  // The real channel survived the attempts: a person's click still pays, once.
  await clickBadgeButton(dapp, "check");
  const badge = await waitForBadge(dapp, finished, 30_000);
  expect(badge.level).toBe("ok");
  expect(wallet.signRequests()).toHaveLength(1);
});

// A page cannot reach into the closed root, but the DevTools protocol can: this is the strongest
// synthetic click there is, dispatched on the paid button itself once the badge would accept a
// person's click. The click reaches the button (a listener on it sees the event) and the
// button's isTrusted check drops it: no check starts, nothing is signed.
test("a synthetic click that reaches the paid button inside the closed root is refused", async ({
  api,
  dapp,
  wallet,
}) => {
  await pasteInto(dapp, dappFields.input, activeEoa(api.world));
  await expandBadge(dapp);
  await waitForBadge(dapp, (b) => b.clickReady && b.text.includes("Check $0.01"));
  const reached = await onBadgeElement<{ reached: boolean; trusted: boolean | null }>(
    dapp,
    "check",
    `function () {
      const seen = { reached: false, trusted: null };
      this.addEventListener("click", (event) => { seen.reached = true; seen.trusted = event.isTrusted; }, { once: true });
      this.click();
      return seen;
    }`,
    "data-action",
  );
  expect(reached).toEqual({ reached: true, trusted: false });
  await dapp.waitForTimeout(1_000);
  const badge = await readBadge(dapp);
  expect(badge.state).toBe(null);
  expect(badge.text).not.toContain("Asking the server");
  expect(wallet.signRequests()).toEqual([]);
  expect(wallet.requests.map((r) => r.method)).not.toContain("eth_requestAccounts");
});

// Keys and pointers a page script dispatches (isTrusted false) drive nothing in the badge. A
// synthetic Tab in the field moved the focus into the badge, so the person's next Enter or
// Space went to its buttons instead of the form; a synthetic Escape or pointer down closed the
// card the person had opened.
test("a page's synthetic Tab, Escape and pointer down move no focus into the badge and close no card", async ({
  dapp,
}) => {
  await pasteInto(dapp, dappFields.input, randomAddress());
  await waitForBadge(dapp, (b) => b.visible && b.chip !== null);
  await dapp.evaluate(() => {
    const field = document.getElementById("to") as HTMLInputElement;
    field.dispatchEvent(
      new KeyboardEvent("keydown", { key: "Tab", bubbles: true, composed: true }),
    );
  });
  expect(await dapp.evaluate(() => document.activeElement?.id)).toBe("to");

  await expandBadge(dapp);
  await dapp.evaluate(() => {
    document.body.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true }));
    document.body.dispatchEvent(new PointerEvent("pointerdown", { bubbles: true, composed: true }));
  });
  await dapp.waitForTimeout(300);
  expect((await readBadge(dapp)).expanded).toBe(true);
  // The person's own Escape still closes it.
  await dapp.keyboard.press("Escape");
  await waitForBadge(dapp, (b) => !b.expanded);
});
