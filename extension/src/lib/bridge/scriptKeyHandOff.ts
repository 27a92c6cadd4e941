// The wallet bridge is injected on demand (a <script> the content script adds when a paid check
// or the card needs the page wallet), long after page scripts started. Its key is handed over
// on the script element itself, which the content script removes from the page before the
// script runs: only code holding that element hears the event. A page that still catches it
// (watching the DOM) learns a key that lets it answer in the wallet's place, which the page can
// do anyway since it owns the wallet provider; payments still start only from a person's click
// in the isolated world, and everything the bridge says is checked there.

const scriptKeyEvent = "presend:wallet-bridge-key";

type KeyTarget = Pick<EventTarget, "addEventListener" | "removeEventListener" | "dispatchEvent">;
type CustomEventConstructor = new (type: string, init?: { detail?: string }) => Event;

/**
 * ISOLATED side: hands `keyHex` to the injected script through its own element.
 * @example handKeyToScript(script, CustomEvent, keyHex)
 */
export function handKeyToScript(
  script: KeyTarget,
  EventCtor: CustomEventConstructor,
  keyHex: string,
): void {
  script.dispatchEvent(new EventCtor(scriptKeyEvent, { detail: keyHex }));
}

/**
 * MAIN side (while the script's top level runs): resolves with the first key handed to
 * `document.currentScript`; later ones are ignored.
 * @example const keyHex = await keyFromScript(document.currentScript)
 */
export function keyFromScript(script: KeyTarget | null): Promise<string> {
  return new Promise((resolve, reject) => {
    if (!script) return reject(new Error("The wallet bridge was not started as a script."));
    const onKey = (event: Event) => {
      const detail = (event as CustomEvent<unknown>).detail;
      if (typeof detail !== "string" || !/^[0-9a-f]{64}$/.test(detail)) return;
      script.removeEventListener(scriptKeyEvent, onKey);
      resolve(detail);
    };
    script.addEventListener(scriptKeyEvent, onKey);
  });
}
