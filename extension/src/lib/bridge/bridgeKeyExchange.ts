// The ISOLATED content script and the MAIN-world bridge share one page, and everything the MAIN
// world sees the page sees too. They agree on a MAC key at document_start, before any page
// script has run: synchronous CustomEvents dispatched then cannot be observed by the page.
// Afterwards every frame between them is authenticated, so a page that forges bridge messages
// is ignored by both sides.

const keyEvent = "presend:bridge-key";
const helloEvent = "presend:bridge-hello";

type EventWindow = Pick<Window, "addEventListener" | "removeEventListener" | "dispatchEvent">;
type CustomEventConstructor = new (type: string, init?: { detail?: string }) => Event;

/**
 * ISOLATED side: hands `keyHex` to the bridge, whichever of the two scripts started first.
 * Call the returned `close` once the bridge has proved it holds the key (its first
 * authenticated frame), so a page script cannot ask for the key later with a forged hello.
 * @example const { close } = offerBridgeKey(window, CustomEvent, keyHex)
 */
export function offerBridgeKey(
  win: EventWindow,
  EventCtor: CustomEventConstructor,
  keyHex: string,
): { close: () => void } {
  let answered = false;
  const send = () => win.dispatchEvent(new EventCtor(keyEvent, { detail: keyHex }));
  const onHello = () => {
    if (answered) return;
    answered = true;
    close();
    send();
  };
  const close = () => win.removeEventListener(helloEvent, onHello);
  win.addEventListener(helloEvent, onHello);
  // The bridge may already be listening (it started first).
  send();
  return { close };
}

/**
 * MAIN side: resolves with the first key offered, and asks for it in case the ISOLATED script
 * started first. Later offers are ignored.
 * @example const keyHex = await receiveBridgeKey(window, CustomEvent)
 */
export function receiveBridgeKey(
  win: EventWindow,
  EventCtor: CustomEventConstructor,
): Promise<string> {
  return new Promise((resolve) => {
    const onKey = (event: Event) => {
      const detail = (event as CustomEvent<unknown>).detail;
      if (typeof detail !== "string" || !/^[0-9a-f]{64}$/.test(detail)) return;
      win.removeEventListener(keyEvent, onKey);
      resolve(detail);
    };
    win.addEventListener(keyEvent, onKey);
    win.dispatchEvent(new EventCtor(helloEvent));
  });
}
