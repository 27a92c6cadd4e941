import { flushSync } from "react-dom";
import { createRoot, type Root } from "react-dom/client";
import type { Address } from "viem";
import { type ChainName, chainById } from "../../../../shared/chains/chains";
import { assessLocally, type LocalAssessment } from "../address/assessLocally";
import type { EditableField } from "../dom/editableFieldFrom";
import type { AddressEntry } from "../dom/watchAddressEntry";
import type { CheckOutcome, Progress, WalletInfo } from "../messaging/protocol";
import type { Route } from "../storage/schemas";
import { Badge } from "./Badge";
import { badgePosition } from "./badgePosition";
import { createBadgeHost } from "./createBadgeHost";

export type BadgeControllerOptions = {
  doc: Document;
  win: Window;
  /** Addresses the user checked or sent to before (for the lookalike warning). */
  known: () => readonly Address[];
  /** Starts a paid check; called only for a person's click (PaidCheckControls checks isTrusted). */
  startCheck: (request: { route: Route; address: Address; chain: ChainName }) => void;
  /** performance.mark / measure, injected for the paste-to-badge measurement. */
  performance: Pick<Performance, "mark" | "measure">;
};

type State = {
  field: EditableField;
  candidate: AddressEntry["candidate"];
  assessment: LocalAssessment;
  chain: ChainName;
  chainSource: "wallet" | "default" | "user";
  session: string | null;
  progress: Progress | null;
  outcome: CheckOutcome | null;
};

/**
 * The one badge of a page: shows the local assessment of the address in the field the person
 * touched last, follows that field, and shows the paid check's progress and result.
 * @example const badge = createBadgeController({ doc: document, win: window, known, startCheck, performance })
 */
export function createBadgeController(options: BadgeControllerOptions) {
  const { doc, win } = options;
  let host: HTMLElement | null = null;
  let root: Root | null = null;
  let state: State | null = null;
  let walletChain: ChainName | null = null;
  let frame = 0;

  const ensureRoot = (): Root => {
    if (!root || !host?.isConnected) {
      const created = createBadgeHost(doc);
      host = created.host;
      root = createRoot(created.container);
    }
    return root;
  };

  const place = () => {
    if (!host || !state) return;
    if (!state.field.isConnected) {
      hide();
      return;
    }
    const rect = state.field.getBoundingClientRect();
    const size = { width: host.offsetWidth || 320, height: host.offsetHeight || 110 };
    const { top, left } = badgePosition(
      rect,
      { width: win.innerWidth, height: win.innerHeight },
      size,
    );
    host.style.top = `${top}px`;
    host.style.left = `${left}px`;
  };

  const schedulePlace = () => {
    if (frame || !state) return;
    frame = win.requestAnimationFrame(() => {
      frame = 0;
      place();
    });
  };

  const render = () => {
    const current = state;
    const target = ensureRoot();
    if (!current || !host) return;
    host.style.display = "block";
    // Synchronous render: the badge is in the DOM when this returns (the latency we measure).
    flushSync(() =>
      target.render(
        <Badge
          assessment={current.assessment}
          chain={current.chain}
          chainSource={current.chainSource}
          progress={current.progress}
          outcome={current.outcome}
          busy={current.session !== null && current.outcome === null}
          onChainChange={(chain) => update({ chain, chainSource: "user" })}
          onCheck={(route) => {
            const normalized = current.assessment.checksum.normalized;
            if (!normalized || state?.session) return;
            options.performance.mark("presend:check-click");
            options.startCheck({ route, address: normalized, chain: current.chain });
          }}
          onClose={hide}
        />,
      ),
    );
    place();
  };

  const update = (patch: Partial<State>) => {
    if (!state) return;
    state = { ...state, ...patch };
    render();
  };

  const hide = () => {
    state = null;
    if (host) host.style.display = "none";
    root?.render(null);
  };

  win.addEventListener("scroll", schedulePlace, true);
  win.addEventListener("resize", schedulePlace);
  // A field the page removes takes its badge with it.
  const observer = new (win as Window & typeof globalThis).MutationObserver(() => {
    if (state && !state.field.isConnected) hide();
  });
  observer.observe(doc.documentElement ?? doc, { childList: true, subtree: true });

  return {
    show(entry: AddressEntry) {
      const assessment = assessLocally(entry.candidate, options.known());
      const sameAddress =
        state?.field === entry.field && state.assessment.input === assessment.input;
      if (sameAddress && state) {
        // Typing after a paste, or the page echoing the pasted value: keep any paid result.
        return;
      }
      // A new address ends whatever check was shown for the previous one.
      const chain = state?.chainSource === "user" ? state.chain : (walletChain ?? "base");
      state = {
        field: entry.field,
        candidate: entry.candidate,
        assessment,
        chain,
        chainSource: state?.chainSource === "user" ? "user" : walletChain ? "wallet" : "default",
        session: null,
        progress: null,
        outcome: null,
      };
      options.performance.mark("presend:entry", { startTime: entry.at });
      render();
      options.performance.mark("presend:badge");
      options.performance.measure(
        `presend:${entry.trigger}-to-badge`,
        "presend:entry",
        "presend:badge",
      );
    },
    clear(field: EditableField) {
      if (state?.field === field && !state.session) hide();
    },
    /** The dApp wallet's chain changed: preselect it unless the person picked a chain. */
    setWallet(info: WalletInfo) {
      walletChain = info.chainId ? (chainById(info.chainId)?.name ?? null) : null;
      if (state && state.chainSource !== "user" && walletChain && !state.session) {
        update({ chain: walletChain, chainSource: "wallet" });
      }
    },
    beginSession(session: string) {
      update({ session, progress: { step: "requesting" }, outcome: null });
    },
    progress(session: string, progress: Progress) {
      if (state?.session === session) update({ progress });
    },
    finish(session: string, outcome: CheckOutcome) {
      if (state?.session !== session) return;
      update({ outcome, progress: null });
      if (outcome.type === "report") {
        // Click to verdict on screen, for the e2e measurement (like paste-to-badge).
        options.performance.mark("presend:verdict");
        options.performance.measure(
          "presend:click-to-verdict",
          "presend:check-click",
          "presend:verdict",
        );
      }
    },
    /** Hides the badge (the site was disabled); a running check keeps running in the background. */
    hide,
    /** Re-run the local assessment (the known addresses changed). */
    refresh() {
      if (state && !state.session) {
        update({ assessment: assessLocally(state.candidate, options.known()) });
      }
    },
  };
}
