import type { Frame, Page } from "@playwright/test";

/** Fields of the test dApp, as selectors Playwright can reach (open shadow roots included). */
export const dappFields = {
  input: "#to",
  textarea: "#memo",
  contenteditable: "#editor",
  "open shadow root": "#shadow-host >> #shadow-input",
} as const;

/**
 * Pastes `text` into the field the way a browser does: a paste event carrying clipboard data,
 * then the insertion (with its input event) when the page does not prevent it.
 */
export async function pasteInto(page: Page | Frame, selector: string, text: string): Promise<void> {
  const field = page.locator(selector);
  await field.click();
  await field.evaluate((element, value) => {
    const data = new DataTransfer();
    data.setData("text/plain", value);
    const event = new ClipboardEvent("paste", {
      clipboardData: data,
      bubbles: true,
      cancelable: true,
      composed: true,
    });
    if (element.dispatchEvent(event)) document.execCommand("insertText", false, value);
  }, text);
}

/** Types `text` key by key, as a person would. */
export async function typeInto(page: Page | Frame, selector: string, text: string): Promise<void> {
  const field = page.locator(selector);
  await field.click();
  await field.pressSequentially(text, { delay: 0 });
}
