import { MessageError } from "./MessageError";
import {
  EnvelopeSchema,
  type MessageFailure,
  type MessageType,
  protocol,
  ReplySchema,
  type RequestOf,
  type ResponseOf,
} from "./protocol";

/** The parts of chrome.runtime / chrome.tabs the messenger needs (injectable for tests). */
export type MessagingApi = {
  runtime: {
    id: string;
    sendMessage(message: unknown): Promise<unknown>;
    onMessage: {
      addListener(listener: RuntimeListener): void;
      removeListener(listener: RuntimeListener): void;
    };
  };
  tabs?: {
    sendMessage(tabId: number, message: unknown, options?: { frameId?: number }): Promise<unknown>;
    /** Rejects when the tab no longer exists. */
    get(tabId: number): Promise<unknown>;
  };
};

export type MessageSender = {
  id?: string;
  url?: string;
  origin?: string;
  tab?: { id?: number; url?: string };
  frameId?: number;
};

export type RuntimeListener = (
  message: unknown,
  sender: MessageSender,
  sendResponse: (reply: unknown) => void,
) => boolean | undefined;

export type Handlers = {
  [T in MessageType]?: (data: RequestOf<T>, sender: MessageSender) => Promise<ResponseOf<T>>;
};

function parseReply<T extends MessageType>(type: T, raw: unknown): ResponseOf<T> {
  const reply = ReplySchema.safeParse(raw);
  if (!reply.success) {
    throw new MessageError({ code: "failed", message: `No valid answer to ${type}.` });
  }
  if (!reply.data.ok) throw new MessageError(reply.data.error);
  const data = protocol[type].response.safeParse(reply.data.data);
  if (!data.success) {
    throw new MessageError({ code: "invalid", message: `Malformed answer to ${type}.` });
  }
  return data.data as ResponseOf<T>;
}

function envelope<T extends MessageType>(type: T, data: RequestOf<T>) {
  return { presend: 1, type, data: protocol[type].request.parse(data) };
}

/**
 * A typed, validated messenger over chrome.runtime / chrome.tabs.
 * @example const messenger = createMessenger(browser); await messenger.send("wallet.status", { tabId })
 */
export function createMessenger(api: MessagingApi) {
  const listenerFor =
    (handlers: Handlers): RuntimeListener =>
    (message, sender, sendResponse) => {
      const parsed = EnvelopeSchema.safeParse(message);
      if (!parsed.success || !(parsed.data.type in protocol)) return undefined;
      const type = parsed.data.type as MessageType;
      const handler = handlers[type] as
        | ((data: unknown, sender: MessageSender) => Promise<unknown>)
        | undefined;
      if (!handler) return undefined;
      const reply = (value: unknown) => sendResponse(value);
      if (sender.id !== api.runtime.id) {
        reply(fail({ code: "not_allowed", message: "Message from another extension." }));
        return undefined;
      }
      const request = protocol[type].request.safeParse(parsed.data.data);
      if (!request.success) {
        reply(fail({ code: "invalid", message: `Malformed ${type} request.` }));
        return undefined;
      }
      handler(request.data, sender).then(
        (data) => reply({ ok: true, data }),
        (error: unknown) => reply(fail(toFailure(error))),
      );
      // Keeps the channel open for the asynchronous answer.
      return true;
    };

  return {
    /** To the background (or, from the background, to extension pages). */
    async send<T extends MessageType>(type: T, data: RequestOf<T>): Promise<ResponseOf<T>> {
      return parseReply(type, await api.runtime.sendMessage(envelope(type, data)));
    },

    /** To the content script of one tab (and frame). */
    async sendToTab<T extends MessageType>(
      tabId: number,
      type: T,
      data: RequestOf<T>,
      frameId = 0,
    ): Promise<ResponseOf<T>> {
      if (!api.tabs) throw new MessageError({ code: "failed", message: "No tabs API here." });
      let raw: unknown;
      try {
        raw = await api.tabs.sendMessage(tabId, envelope(type, data), { frameId });
      } catch (cause) {
        // A tab closed while its page was asked (a wallet prompt open in it) is a page left, not
        // a page without presend.
        const tabGone = await api.tabs.get(tabId).then(
          () => false,
          () => true,
        );
        if (tabGone) {
          throw new MessageError({ code: "page_left", message: "The tab was closed." }, { cause });
        }
        // No content script in the tab (a chrome:// page, a store page, a tab opened before install).
        throw new MessageError(
          { code: "no_wallet", message: "The page has no presend content script." },
          { cause },
        );
      }
      return parseReply(type, raw);
    },

    /**
     * Answers the listed message types; other types are left to other listeners. Only messages
     * from this extension itself are accepted (a web page cannot reach runtime messaging, but a
     * second extension could try). Returns the unsubscribe function.
     */
    handle(handlers: Handlers): () => void {
      const listener = listenerFor(handlers);
      api.runtime.onMessage.addListener(listener);
      return () => api.runtime.onMessage.removeListener(listener);
    },

    /**
     * The runtime.onMessage listener `handle` registers, unregistered: for a message that
     * arrived before these handlers existed (the content script's loader hands it over).
     */
    listenerFor,
  };
}

export type Messenger = ReturnType<typeof createMessenger>;

function fail(error: MessageFailure) {
  return { ok: false as const, error };
}

function toFailure(error: unknown): MessageFailure {
  if (error instanceof MessageError) return error.toFailure();
  return { code: "failed", message: error instanceof Error ? error.message : String(error) };
}
