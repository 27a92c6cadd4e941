import type { Page } from "@playwright/test";
import { expect, test } from "../fixtures/test";
import { expandBadge, waitForBadge } from "../helpers/badge";
import { activeEoa } from "../helpers/demo";
import { dappFields, pasteInto } from "../helpers/enterAddress";

// The card (the verdict, the paid checks, recovery) is not in every page: the content script
// imports it into its isolated world on the first address entered. The DevTools protocol can
// evaluate in the extension's isolated world (no page script can), where the chunk registers.
async function cardChunkLoaded(page: Page): Promise<boolean> {
  const session = await page.context().newCDPSession(page);
  const contexts: { id: number; name: string; auxData?: { type?: string } }[] = [];
  session.on("Runtime.executionContextCreated", ({ context }) => contexts.push(context));
  // Enabling reports every existing context first.
  await session.send("Runtime.enable");
  const isolated = contexts.filter((c) => c.auxData?.type === "isolated" && c.name === "presend");
  expect(isolated.length).toBeGreaterThan(0);
  const loaded: boolean[] = [];
  for (const context of isolated) {
    const { result } = await session.send("Runtime.evaluate", {
      contextId: context.id,
      expression: "typeof globalThis.__presendVerdictUi === 'object'",
      returnByValue: true,
    });
    loaded.push(result.value === true);
  }
  // The page's own world never sees it.
  const { result: inPage } = await session.send("Runtime.evaluate", {
    expression: "'__presendVerdictUi' in globalThis",
    returnByValue: true,
  });
  expect(inPage.value).toBe(false);
  await session.detach();
  return loaded.some(Boolean);
}

test("the card's chunk loads on the first address entered, into the isolated world only", async ({
  api,
  dapp,
}) => {
  // Time for anything eager to have happened.
  await dapp.waitForTimeout(1_000);
  expect(await cardChunkLoaded(dapp)).toBe(false);

  await pasteInto(dapp, dappFields.input, activeEoa(api.world));
  await waitForBadge(dapp, (b) => b.visible && "chip" in b.byTestId);
  await expect.poll(() => cardChunkLoaded(dapp)).toBe(true);

  const card = await expandBadge(dapp);
  expect(card.byTestId.address).toBe(activeEoa(api.world));
});
