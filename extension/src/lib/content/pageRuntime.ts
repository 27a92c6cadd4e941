import type { ContentScriptContext } from "wxt/utils/content-script-context";
import type { EditableField } from "../dom/editableFieldFrom";
import type { AddressEntry } from "../dom/watchAddressEntry";
import type { ScriptedValue } from "../dom/watchScriptedValues";
import type { RuntimeListener } from "../messaging/messenger";

/** What the content script's loader set up at document_start and hands to the runtime. */
export type PageRuntimeStart = {
  ctx: ContentScriptContext;
  /** Posts to the send observer over the channel keyed at document_start. */
  observerPost: (body: unknown) => Promise<void>;
};

/**
 * The badge and everything behind it (storage, messaging, the wallet bridge): the page-runtime
 * chunk (entrypoints/page-runtime), which the content script imports into its isolated world
 * the first time its frame has a field in use or a message for it. Until then a frame only
 * carries the small loader.
 */
export type PageRuntime = {
  /** An address typed or pasted into a field. */
  entered(entry: AddressEntry): void;
  /** A field no longer holds an address. */
  cleared(field: EditableField): void;
  /** A page script filled a field with an address. */
  scripted(value: ScriptedValue): void;
  /** An authenticated message of the send observer (other than its ready signal). */
  observed(body: unknown): void;
  /** Answers an extension message that arrived before the runtime's own listener existed. */
  deliver: RuntimeListener;
};

export type StartPageRuntime = (start: PageRuntimeStart) => Promise<PageRuntime>;

// The isolated world's global the chunk registers on; page scripts live in another world.
const registryKey = "__presendPageRuntime";

type Registry = { [registryKey]?: StartPageRuntime };

/** Called by the chunk: makes its start function available to the loader of its frame. */
export function registerPageRuntime(scope: object, start: StartPageRuntime): void {
  (scope as Registry)[registryKey] = start;
}

/** The chunk's start function once it ran in this frame's isolated world, else null. */
export function registeredPageRuntime(scope: object): StartPageRuntime | null {
  return (scope as Registry)[registryKey] ?? null;
}
