import { flushSync } from "react-dom";
import { createRoot, type Root } from "react-dom/client";
import { defineUnlistedScript } from "wxt/utils/define-unlisted-script";
import { BadgeCard } from "../lib/badge/BadgeCard";
import { registerVerdictUi } from "../lib/badge/verdictUi";
import { cardStyles } from "../lib/ui/cardStyles";
import { privateCustomProperties } from "../lib/ui/privateCustomProperties";

// The card a chip opens (the verdict, the paid checks, recovery): the content script imports
// this script into its isolated world once an address was entered in its frame. A page where
// no address is entered never loads it.
export default defineUnlistedScript(() => {
  const roots = new WeakMap<Element, Root>();
  // Renamed as the chip's stylesheet was in this isolated world (the card uses its tokens).
  const styles = privateCustomProperties(cardStyles);
  registerVerdictUi(globalThis, {
    renderCard(slot, props) {
      let root = roots.get(slot);
      if (!props) {
        root?.unmount();
        roots.delete(slot);
        return;
      }
      if (!root) {
        root = createRoot(slot);
        roots.set(slot, root);
      }
      const mounted = root;
      // Synchronous, like the chip: focus moves into the card right after. The card's styles
      // come with it (the chip's are in the shadow root already), so every page's content
      // script carries only the chip's.
      flushSync(() =>
        mounted.render(
          <>
            <style>{styles}</style>
            <BadgeCard {...props} />
          </>,
        ),
      );
    },
  });
});
