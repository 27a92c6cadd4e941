// Authenticated frames over window.postMessage between the ISOLATED content script and the
// MAIN-world bridge (key from bridgeKeyExchange). The page can read every frame; it cannot
// forge or replay one.

export type ChannelSide = "isolated" | "main";

type Frame = { presend: "bridge"; to: ChannelSide; id: string; body: string; mac: string };

export type ChannelWindow = Pick<Window, "addEventListener" | "postMessage">;

export type SecureChannel = {
  /** Sends `body` (JSON-serialisable) to the other side. */
  post(body: unknown): Promise<void>;
};

export type ChannelOptions = {
  win: ChannelWindow;
  side: ChannelSide;
  keyHex: string;
  /** crypto.subtle and getRandomValues, captured before page scripts could replace them. */
  subtle: SubtleCrypto;
  randomId: () => string;
  /** Called with the parsed body of each authentic, fresh frame addressed to this side. */
  onMessage: (body: unknown) => void;
};

const encoder = new TextEncoder();

function hexToBytes(hex: string): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(hex.length / 2);
  for (let i = 0; i < bytes.length; i++)
    bytes[i] = Number.parseInt(hex.slice(i * 2, i * 2 + 2), 16);
  return bytes;
}

function bytesToHex(bytes: ArrayBuffer): string {
  return Array.from(new Uint8Array(bytes), (b) => b.toString(16).padStart(2, "0")).join("");
}

function signedText(frame: Pick<Frame, "to" | "id" | "body">): Uint8Array<ArrayBuffer> {
  return encoder.encode(`${frame.to}\n${frame.id}\n${frame.body}`);
}

function isFrame(data: unknown): data is Frame {
  const f = data as Partial<Frame> | null;
  return (
    typeof f === "object" &&
    f !== null &&
    f.presend === "bridge" &&
    (f.to === "isolated" || f.to === "main") &&
    typeof f.id === "string" &&
    typeof f.body === "string" &&
    typeof f.mac === "string" &&
    /^[0-9a-f]{64}$/.test(f.mac)
  );
}

/**
 * Opens one side of the authenticated channel.
 * @example const channel = await openSecureChannel({ win: window, side: "isolated", keyHex, subtle, randomId, onMessage })
 */
export async function openSecureChannel(options: ChannelOptions): Promise<SecureChannel> {
  const { win, side, subtle } = options;
  const key = await subtle.importKey(
    "raw",
    hexToBytes(options.keyHex),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  const other: ChannelSide = side === "isolated" ? "main" : "isolated";
  // Ids already accepted: a replayed frame (same id, valid mac) is dropped.
  const seen = new Set<string>();

  const onMessage = async (event: MessageEvent) => {
    if (event.source !== null && event.source !== (win as unknown)) return;
    const frame = event.data;
    if (!isFrame(frame) || frame.to !== side || seen.has(frame.id)) return;
    const authentic = await subtle.verify("HMAC", key, hexToBytes(frame.mac), signedText(frame));
    if (!authentic || seen.has(frame.id)) return;
    seen.add(frame.id);
    let body: unknown;
    try {
      body = JSON.parse(frame.body);
    } catch {
      return;
    }
    options.onMessage(body);
  };
  win.addEventListener("message", (event) => void onMessage(event as MessageEvent));

  return {
    async post(body) {
      const unsigned = { to: other, id: options.randomId(), body: JSON.stringify(body) };
      const mac = bytesToHex(await subtle.sign("HMAC", key, signedText(unsigned)));
      const frame: Frame = { presend: "bridge", ...unsigned, mac };
      win.postMessage(frame, "*");
    },
  };
}
