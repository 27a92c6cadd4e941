import { styles } from "../ui/styles";

export type BadgeHost = { host: HTMLElement; container: HTMLElement };

/**
 * The badge's own element: a fixed-position host with a CLOSED shadow root, so page scripts
 * can neither read nor click into it (host.shadowRoot is null for them) and page CSS cannot
 * restyle it. Attached to <html>, outside the page's own layout.
 * @example const { host, container } = createBadgeHost(document)
 */
export function createBadgeHost(doc: Document): BadgeHost {
  const host = doc.createElement("presend-badge");
  host.style.cssText =
    "position:fixed;z-index:2147483647;top:0;left:0;display:none;margin:0;padding:0;border:0;";
  const shadow = host.attachShadow({ mode: "closed" });
  const style = doc.createElement("style");
  style.textContent = styles;
  const container = doc.createElement("div");
  shadow.append(style, container);
  (doc.documentElement ?? doc).append(host);
  return { host, container };
}
