import { defineUnlistedScript } from "wxt/utils/define-unlisted-script";
import { registerPageRuntime } from "../lib/content/pageRuntime";
import { startPageRuntime } from "../lib/content/startPageRuntime";

// The badge and everything behind it: the content script's loader imports this script into
// its isolated world the first time its frame has a field in use or a message for it, so the
// frames of a page that never take an address only carry the loader.
export default defineUnlistedScript(() => {
  registerPageRuntime(globalThis, startPageRuntime);
});
