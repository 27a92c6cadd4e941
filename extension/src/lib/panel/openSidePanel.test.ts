import { describe, expect, it, vi } from "vitest";
import { openSidePanel } from "./openSidePanel";

const target = { tabId: 7, frameId: 3 };

describe("openSidePanel", () => {
  it("opens Chromium's side panel of the tab, naming the badge, before anything is awaited, and remembers it", async () => {
    const calls: string[] = [];
    const api = {
      sidePanel: {
        setOptions: vi.fn(async (options: { tabId: number; path: string }) => {
          calls.push(`setOptions ${options.tabId} ${options.path}`);
        }),
        open: vi.fn(async (options: { tabId: number }) => {
          calls.push(`open ${options.tabId}`);
        }),
      },
    };
    const remember = vi.fn(async () => {
      calls.push("remember");
    });
    const opening = openSidePanel(api, target, remember);
    // Called synchronously, inside the click's message: the browser's condition for opening.
    expect(api.sidePanel.open).toHaveBeenCalledWith({ tabId: 7 });
    await expect(opening).resolves.toBe(true);
    expect(remember).toHaveBeenCalledWith(target);
    // This tab's own panel, naming the badge, set before it opens.
    expect(calls.slice(0, 2)).toEqual(["setOptions 7 sidepanel.html?tab=7&frame=3", "open 7"]);
  });

  it("uses Firefox's sidebar, and says false where there is none or the browser refused", async () => {
    const remember = async () => undefined;
    const sidebarAction = { open: vi.fn(async () => undefined) };
    await expect(openSidePanel({ sidebarAction }, target, remember)).resolves.toBe(true);
    expect(sidebarAction.open).toHaveBeenCalled();
    await expect(openSidePanel({}, target, remember)).resolves.toBe(false);
    const refusing = {
      sidePanel: {
        open: async () => {
          throw new Error("may only be called in response to a user gesture");
        },
      },
    };
    await expect(openSidePanel(refusing, target, remember)).resolves.toBe(false);
  });
});
