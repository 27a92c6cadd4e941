import { z } from "zod";

/** The badge whose details the side panel shows: a tab and one of its frames. */
export const PanelTargetSchema = z.object({
  tabId: z.number().int(),
  frameId: z.number().int(),
});
export type PanelTarget = z.infer<typeof PanelTargetSchema>;

/** The parts of the browser the side panel needs: Chromium's sidePanel or Firefox's sidebar. */
export type SidePanelApi = {
  sidePanel?: {
    open(options: { tabId: number }): Promise<void>;
    setOptions?(options: { tabId: number; path: string; enabled: boolean }): Promise<void>;
  };
  sidebarAction?: { open(): Promise<void> };
};

/**
 * Opens the browser's side panel on the badge in `target`'s tab and frame, which it remembers
 * (`remember`, the session storage the panel page reads). Must run in the person's click (a
 * message sent from it): the browser opens the panel only then, so nothing is awaited before.
 * Resolves false where there is no side panel or the browser refused: the card opens instead.
 * @example await openSidePanel(browser, { tabId, frameId }, (t) => browser.storage.session.set({ panelTarget: t }))
 */
export async function openSidePanel(
  api: SidePanelApi,
  target: PanelTarget,
  remember: (target: PanelTarget) => Promise<void>,
): Promise<boolean> {
  // Chromium: a panel of this tab only (it closes with a switch to another tab, comes back with
  // this one) that names its badge in its address. Called, not awaited, before open: awaiting
  // would spend the click.
  api.sidePanel
    ?.setOptions?.({
      tabId: target.tabId,
      path: `sidepanel.html?tab=${target.tabId}&frame=${target.frameId}`,
      enabled: true,
    })
    .catch(() => undefined);
  const opening = api.sidePanel
    ? api.sidePanel.open({ tabId: target.tabId })
    : api.sidebarAction?.open();
  if (!opening) return false;
  const remembered = remember(target);
  try {
    await Promise.all([opening, remembered]);
    return true;
  } catch {
    return false;
  }
}
