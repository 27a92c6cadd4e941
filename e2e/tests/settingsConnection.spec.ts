import { expect, test } from "../fixtures/test";
import { closedPort } from "../helpers/addresses";
import { screenshot } from "../helpers/screenshot";

// An error the settings can fix links to them ("Open settings", spending.spec); there the person
// tests the API address before saving it, against the real server.

test("the settings test the API address: presend's server answers with the chains it reads; a closed port is named, without the browser's words", async ({
  api,
  context,
  extensionId,
}) => {
  const options = await context.newPage();
  await options.setViewportSize({ width: 800, height: 700 });
  await options.goto(`chrome-extension://${extensionId}/options.html`);
  await expect(options.locator('input[name="apiUrl"]')).toHaveValue(api.url);
  await options.getByRole("button", { name: "Test connection" }).click();
  const result = options.getByTestId("connection-result");
  await expect(result).toHaveAttribute("data-ok", "true");
  await expect(result).toContainText("Connected to presend");
  await expect(result).toContainText("Base");
  await screenshot(options, "options-connection-test");

  const closed = `http://127.0.0.1:${await closedPort()}`;
  await options.locator('input[name="apiUrl"]').fill(closed);
  await options.getByRole("button", { name: "Test connection" }).click();
  await expect(result).toHaveAttribute("data-ok", "false");
  await expect(result).toHaveText(
    `No answer from ${closed}: check the address, and that the server is running.`,
  );
  await options.close();
});
