import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createRoot } from "react-dom/client";
import { browser } from "wxt/browser";
import { createMessenger, type MessagingApi } from "../../lib/messaging/messenger";
import { type PanelTarget, PanelTargetSchema } from "../../lib/panel/openSidePanel";
import { SidePanel } from "../../lib/panel/SidePanel";
import { StyleTag } from "../../lib/ui/StyleTag";

// The badge whose details the panel shows: ?tab=<id>&frame=<id> when opened as a page, else the
// one the last "Show in side panel" click named (kept in session storage by the background).
function targetFromUrl(): PanelTarget | null {
  const params = new URLSearchParams(location.search);
  const parsed = PanelTargetSchema.safeParse({
    tabId: Number(params.get("tab")),
    frameId: Number(params.get("frame") ?? 0),
  });
  return parsed.success && parsed.data.tabId > 0 ? parsed.data : null;
}

async function storedTarget(): Promise<PanelTarget | null> {
  const { panelTarget } = await browser.storage.session.get("panelTarget");
  const parsed = PanelTargetSchema.safeParse(panelTarget);
  return parsed.success ? parsed.data : null;
}

const root = document.getElementById("root");
if (root) {
  const messenger = createMessenger(browser as unknown as MessagingApi);
  const queryClient = new QueryClient();
  const app = createRoot(root);
  const show = (target: PanelTarget | null) =>
    app.render(
      <QueryClientProvider client={queryClient}>
        <StyleTag />
        <SidePanel messenger={messenger} target={target} />
      </QueryClientProvider>,
    );
  // A panel opened for one tab (Chromium names it in the address) follows that tab's badges only.
  const fixed = targetFromUrl();
  let shown: PanelTarget | null = null;
  const showTarget = (target: PanelTarget | null) => {
    shown = target;
    show(target);
  };
  if (fixed) showTarget(fixed);
  else void storedTarget().then(showTarget);
  // Another badge's "Show in side panel" while the panel is open: it follows.
  browser.storage.session.onChanged.addListener((changes) => {
    if (!("panelTarget" in changes)) return;
    void storedTarget().then((target) => {
      if (!target || (fixed && target.tabId !== fixed.tabId)) return;
      if (target.tabId !== shown?.tabId || target.frameId !== shown.frameId) showTarget(target);
    });
  });
}
