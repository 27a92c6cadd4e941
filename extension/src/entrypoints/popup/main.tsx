import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createRoot } from "react-dom/client";
import { browser } from "wxt/browser";
import { createMessenger, type MessagingApi } from "../../lib/messaging/messenger";
import { StyleTag } from "../../lib/ui/StyleTag";
import { Popup } from "./Popup";

// The tab whose wallet pays: the active one, or ?tab=<id> when the popup is opened as a page.
async function targetTab(): Promise<number | null> {
  const fromUrl = Number(new URLSearchParams(location.search).get("tab"));
  if (Number.isInteger(fromUrl) && fromUrl > 0) return fromUrl;
  const [tab] = await browser.tabs.query({ active: true, currentWindow: true });
  return tab?.id ?? null;
}

const root = document.getElementById("root");
if (root) {
  const messenger = createMessenger(browser as unknown as MessagingApi);
  const queryClient = new QueryClient();
  targetTab().then((tabId) =>
    createRoot(root).render(
      <QueryClientProvider client={queryClient}>
        <StyleTag />
        <Popup messenger={messenger} tabId={tabId} />
      </QueryClientProvider>,
    ),
  );
}
