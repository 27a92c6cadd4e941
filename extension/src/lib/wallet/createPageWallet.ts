import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import {
  type Connector,
  createConfig,
  getConnection,
  getConnectors,
  injected,
  reconnect,
  signMessage,
  signTypedData,
  switchChain,
  watchChainId,
  watchConnection,
  watchConnectors,
} from "@wagmi/core";
import { type Address, getAddress, type Hex, http, type TypedDataDefinition, toHex } from "viem";
import { arbitrum, base, mainnet, optimism, polygon } from "viem/chains";
import type { WalletInfo } from "../messaging/protocol";
import { isUserRejection } from "./isUserRejection";
import { NoWalletError } from "./NoWalletError";
import { noWallet } from "./noWallet";
import { SwitchDeclinedError } from "./SwitchDeclinedError";

/** The dApp wallet as the MAIN-world bridge uses it (wagmi core under the hood). */
export type PageWallet = {
  /**
   * State without any prompt: injected or not, authorised account, current chain. Read from the
   * wallet once, then kept up to date by its EIP-1193 events: asking again costs no request.
   */
  info(): Promise<WalletInfo>;
  /** The paying account; asks the wallet to connect (one prompt) when the page is not authorised yet. */
  account(): Promise<Address>;
  /** Signs typed data on `chainId`, switching the wallet there first and back afterwards. */
  signOn(chainId: number, typedData: TypedDataDefinition): Promise<Hex>;
  /** EIP-191 personal_sign with `account` (the receipt proof; no chain switch needed). */
  signMessage(account: Address, message: string): Promise<Hex>;
  /**
   * Whether a contract is deployed at `address` on the wallet's chain, asked of the wallet's own
   * node (eth_getCode; free, no prompt). An EIP-7702 delegation (an account that stays a
   * person's wallet) is not a contract. Null without a wallet.
   */
  code(address: Address): Promise<{ chainId: number | null; contract: boolean } | null>;
  /**
   * A read-only eth_call on the wallet's own node (free, no prompt), refused unless the wallet
   * is on `chainId` now: a read of another chain's state would be wrong, not just missing.
   */
  call(chainId: number, to: Address, data: Hex): Promise<Hex>;
  /** Calls back when what info() says changed: a wallet appeared, its chain or account changed. */
  watch(onChange: () => void): () => void;
};

/**
 * How long a wallet may take to say which accounts it shares before it is passed over for now
 * (one answering later is considered then).
 */
const accountsWaitMs = 1_500;

/** What `promise` gives within `accountsWaitMs`, else `fallback` (a wallet that does not answer). */
function withinWait<T, F>(promise: Promise<T>, fallback: F): Promise<T | F> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const waited = new Promise<F>((resolve) => {
    timer = setTimeout(() => resolve(fallback), accountsWaitMs);
  });
  return Promise.race([promise, waited]).finally(() => clearTimeout(timer));
}

type Eip1193Events = {
  on?: (event: string, listener: (value: unknown) => void) => void;
  request(args: { method: string; params?: unknown[] }): Promise<unknown>;
};

/**
 * Builds the page wallet over EIP-6963 discovery (and window.ethereum as a fallback), with
 * no wagmi storage: nothing about the person's wallet is persisted into the page's storage.
 * The wallet is asked only when something changed (its accountsChanged / chainChanged events,
 * a wallet announcing itself), never polled: a wallet the site is not connected to answers
 * eth_accounts with [] every time, and asking again on every change of wagmi's own state made
 * hundreds of requests a second.
 * @example const wallet = createPageWallet(); await wallet.info()
 */
export function createPageWallet(): PageWallet {
  const config = createConfig({
    chains: [base, mainnet, arbitrum, optimism, polygon],
    connectors: [injected()],
    multiInjectedProviderDiscovery: true,
    storage: null,
    // No reads go through these: signing and switching use the wallet's own provider.
    transports: {
      [base.id]: http(),
      [mainnet.id]: http(),
      [arbitrum.id]: http(),
      [optimism.id]: http(),
      [polygon.id]: http(),
    },
  });

  // The wallet this page pays with, once found, and its chain while the site is not connected
  // (wagmi follows the chain only of a connected wallet).
  let chosen: Connector | null = null;
  let chainWhileDisconnected: number | null = null;
  let loading: Promise<Connector | null> | null = null;
  /** The wallets present when last chosen; the others are named in the card. */
  let wallets: Connector[] = [];
  const following = new WeakSet<object>();
  const listeners = new Set<() => void>();
  let last = "";

  const connected = () => {
    const connection = getConnection(config);
    return connection.status === "connected" ? connection : null;
  };

  const current = (): WalletInfo => {
    if (!chosen) return noWallet;
    const connection = connected();
    return {
      available: true,
      address: connection?.address ? getAddress(connection.address) : null,
      chainId: connection?.chainId ?? chainWhileDisconnected,
      name: chosen.name ?? null,
      // Names are the page's to set: kept short, and only a few.
      others: wallets
        .filter((w) => w !== chosen)
        .slice(0, 8)
        .map((w) => w.name.slice(0, 64)),
    };
  };

  /** Tells the watchers, only when what info() says is different from last time. */
  const changed = () => {
    const now = JSON.stringify(current());
    if (now === last) return;
    last = now;
    for (const listener of listeners) listener();
  };

  /**
   * Every wallet in the page, announced ones first (an EIP-6963 wallet is explicit about who it
   * is), window.ethereum last as the fallback; one entry per provider (window.ethereum is
   * usually one of the announced wallets again).
   */
  const present = async (): Promise<Connector[]> => {
    const all = getConnectors(config);
    const ordered = [
      ...all.filter((c) => c.id !== "injected"),
      ...all.filter((c) => c.id === "injected"),
    ];
    const found: Connector[] = [];
    const providers: unknown[] = [];
    for (const connector of ordered) {
      const provider = await connector.getProvider().catch(() => undefined);
      if (!provider || providers.includes(provider)) continue;
      providers.push(provider);
      found.push(connector);
    }
    return found;
  };

  /**
   * Listens to a wallet's own events once: its chain while the site is not connected (wagmi
   * follows the chain only of a connected wallet), and its accounts, so that connecting the site
   * with another of the person's wallets (with the dApp's own button) makes that one pay.
   */
  const follow = async (connector: Connector) => {
    const provider = (await connector.getProvider().catch(() => null)) as Eip1193Events | null;
    if (!provider || following.has(provider)) return;
    following.add(provider);
    provider.on?.("chainChanged", (chainId) => {
      if (connector !== chosen) return;
      const id = Number(chainId);
      chainWhileDisconnected = Number.isInteger(id) ? id : null;
      changed();
    });
    provider.on?.("accountsChanged", (accounts) => {
      const nowConnected = Array.isArray(accounts) && accounts.length > 0;
      // A wallet newly connected while none paying is, or the paying one leaving the site.
      if ((nowConnected && !connected()) || (!nowConnected && connector === chosen)) void reload();
    });
  };

  /**
   * The accounts a wallet shares with this site (eth_accounts: no prompt), or none when it does
   * not answer in time: a locked wallet may wait for its password before answering, and must not
   * hold up the others. Its late answer, if it shares an account, chooses again.
   */
  const accountsOf = async (connector: Connector): Promise<readonly unknown[]> => {
    const provider = (await connector.getProvider().catch(() => null)) as Eip1193Events | null;
    if (!provider) return [];
    const asked = provider
      .request({ method: "eth_accounts" })
      .then((accounts) => (Array.isArray(accounts) ? accounts : []))
      .catch(() => []);
    const answer = await withinWait(asked, null);
    if (answer !== null) return answer;
    void asked.then((accounts) => {
      if (accounts.length > 0 && !connected()) void reload();
    });
    return [];
  };

  /**
   * Chooses the wallet that pays: the one this site is connected to (a person with several
   * wallets sends from the one the dApp uses, and presend reads that account's history), else
   * the first announced. Each wallet is asked for its accounts at once; wagmi then connects the
   * first that shares one (its reconnect asks that wallet alone, so a silent one holds up none).
   */
  const choose = async (): Promise<Connector | null> => {
    wallets = await present();
    if (wallets.length === 0) return null;
    const shared = await Promise.all(wallets.map(accountsOf));
    const siteWallet = wallets.find((_, index) => (shared[index]?.length ?? 0) > 0);
    if (siteWallet) await reconnect(config, { connectors: [siteWallet] }).catch(() => []);
    const connector = connected()?.connector ?? siteWallet ?? wallets[0] ?? null;
    chosen = connector;
    // A silent wallet's chain is not known yet; its chainChanged event tells it later.
    chainWhileDisconnected =
      connected() || !connector
        ? null
        : await withinWait(
            connector.getChainId().catch(() => null),
            null,
          );
    for (const each of wallets) await follow(each);
    changed();
    return connector;
  };

  /** Chooses again, one choice at a time (wallet events can come in bursts). */
  const reload = (): Promise<Connector | null> => {
    const previous = loading ?? Promise.resolve(null);
    const next: Promise<Connector | null> = previous.then(choose, choose).then((connector) => {
      // No wallet yet: a later announcement (watchConnectors) tries again.
      if (!connector && loading === next) loading = null;
      return connector;
    });
    loading = next;
    return next;
  };
  const ready = (): Promise<Connector | null> => loading ?? reload();

  watchConnection(config, { onChange: changed });
  watchChainId(config, { onChange: changed });
  // EIP-6963 wallets announce when the page's scripts run, after this bridge started: a wallet
  // that comes late is considered too, unless the one chosen is already connected to the site.
  watchConnectors(config, {
    onChange: () => {
      if (!chosen || !connected()) void reload();
    },
  });

  const wallet = async (): Promise<Connector> => {
    const connector = await ready();
    if (!connector) throw new NoWalletError();
    return connector;
  };

  const ensureConnected = async (connector: Connector) => {
    if (connected()) return;
    // One prompt the person sees and can refuse (EIP-1102), then wagmi takes up the accounts
    // the wallet now shares with this site.
    const provider = (await connector.getProvider()) as Eip1193Events;
    await provider.request({ method: "eth_requestAccounts" });
    // Chosen again in turn with the wallet's own accountsChanged (never two reconnects at once).
    if (!connected()) await reload();
  };

  return {
    async info() {
      await ready();
      return current();
    },

    async account() {
      const connector = await wallet();
      await ensureConnected(connector);
      const address = connected()?.address;
      if (!address)
        throw new UpstreamError("The wallet did not provide an account.", { code: "no_account" });
      return getAddress(address);
    },

    async signOn(chainId, typedData) {
      const connector = await wallet();
      await ensureConnected(connector);
      const connection = connected();
      if (!connection)
        throw new UpstreamError("The wallet is not connected.", { code: "not_connected" });
      const previous = connection.chainId;
      const switched = previous !== chainId;
      if (switched) {
        // A "no" to the network switch (or to adding Base) is told from a "no" to the payment:
        // the person saw no payment yet, and the check needs the wallet on Base to be paid.
        await switchChain(config, { chainId: chainId as typeof base.id }).catch((error) => {
          throw isUserRejection(error) ? new SwitchDeclinedError({ cause: error }) : error;
        });
      }
      try {
        return await signTypedData(config, {
          ...typedData,
          account: connection.address,
        } as Parameters<typeof signTypedData>[1]);
      } finally {
        // Leave the wallet where the dApp had it; failing to switch back must not hide the result.
        // Asked of the wallet itself: wagmi switches only to the chains configured here, and the
        // dApp's chain may be any the wallet knows (it was on it).
        if (switched) {
          const provider = (await connector.getProvider()) as Eip1193Events;
          await provider
            .request({
              method: "wallet_switchEthereumChain",
              params: [{ chainId: toHex(previous) }],
            })
            .catch(() => undefined);
        }
      }
    },

    async signMessage(account, message) {
      const connector = await wallet();
      await ensureConnected(connector);
      return signMessage(config, { account, message, connector });
    },

    async code(address) {
      const connector = await ready();
      if (!connector) return null;
      const provider = (await connector.getProvider()) as Eip1193Events;
      const code = await provider.request({ method: "eth_getCode", params: [address, "latest"] });
      const hex = typeof code === "string" ? code.toLowerCase() : "0x";
      // 0xef0100 + 20 bytes: an EIP-7702 delegation designator, not contract code of its own.
      const delegation = hex.startsWith("0xef0100") && hex.length === 2 + 46;
      return { chainId: current().chainId, contract: hex.length > 2 && !delegation };
    },

    async call(chainId, to, data) {
      const provider = (await (await wallet()).getProvider()) as Eip1193Events;
      const on = Number(await provider.request({ method: "eth_chainId" }));
      if (on !== chainId) {
        throw new UpstreamError(`The wallet is on chain ${on}, not ${chainId}.`, {
          code: "wrong_chain",
        });
      }
      const result = await provider.request({
        method: "eth_call",
        params: [{ to, data }, "latest"],
      });
      if (typeof result !== "string" || !/^0x(?:[0-9a-fA-F]{2})*$/.test(result)) {
        throw new UpstreamError("The wallet's node answered the call with no data.", {
          code: "bad_call_result",
        });
      }
      return result as Hex;
    },

    watch(onChange) {
      listeners.add(onChange);
      return () => listeners.delete(onChange);
    },
  };
}
