import { UpstreamError } from "@presend/shared/errors/UpstreamError";
import {
  type Connector,
  connect,
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
import { type Address, getAddress, type Hex, http, type TypedDataDefinition } from "viem";
import { arbitrum, base, mainnet, optimism, polygon } from "viem/chains";
import type { WalletInfo } from "../messaging/protocol";
import { NoWalletError } from "./NoWalletError";
import { noWallet } from "./noWallet";

/** The dApp wallet as the MAIN-world bridge uses it (wagmi core under the hood). */
export type PageWallet = {
  /** State without any prompt: injected or not, authorised account, current chain. */
  info(): Promise<WalletInfo>;
  /** The paying account; asks the wallet to connect when the page is not authorised yet. */
  account(): Promise<Address>;
  /** Signs typed data on `chainId`, switching the wallet there first and back afterwards. */
  signOn(chainId: number, typedData: TypedDataDefinition): Promise<Hex>;
  /** EIP-191 personal_sign with `account` (the receipt proof; no chain switch needed). */
  signMessage(account: Address, message: string): Promise<Hex>;
  /** Calls back whenever a wallet appears or its chain or account change. */
  watch(onChange: () => void): () => void;
};

/**
 * Builds the page wallet over EIP-6963 discovery (and window.ethereum as a fallback), with
 * no wagmi storage: nothing about the person's wallet is persisted into the page's storage.
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

  // An EIP-6963 announced wallet is explicit about who it is; window.ethereum is the fallback.
  const pick = async (): Promise<Connector | null> => {
    const all = getConnectors(config);
    const ordered = [
      ...all.filter((c) => c.id !== "injected"),
      ...all.filter((c) => c.id === "injected"),
    ];
    for (const connector of ordered) {
      const provider = await connector.getProvider().catch(() => undefined);
      if (provider) return connector;
    }
    return null;
  };

  const connected = () => {
    const connection = getConnection(config);
    return connection.status === "connected" ? connection : null;
  };

  const ensureConnected = async (connector: Connector) => {
    if (connected()) return;
    await reconnect(config, { connectors: [connector] });
    if (!connected()) await connect(config, { connector });
  };

  return {
    async info() {
      const connector = await pick();
      if (!connector) return noWallet;
      if (!connected()) await reconnect(config, { connectors: [connector] }).catch(() => []);
      const connection = connected();
      const chainId = connection?.chainId ?? (await connector.getChainId().catch(() => null));
      return {
        available: true,
        address: connection?.address ? getAddress(connection.address) : null,
        chainId,
        name: connector.name ?? null,
      };
    },

    async account() {
      const connector = await pick();
      if (!connector) throw new NoWalletError();
      await ensureConnected(connector);
      const address = connected()?.address;
      if (!address)
        throw new UpstreamError("The wallet did not provide an account.", { code: "no_account" });
      return getAddress(address);
    },

    async signOn(chainId, typedData) {
      const connector = await pick();
      if (!connector) throw new NoWalletError();
      await ensureConnected(connector);
      const connection = connected();
      if (!connection)
        throw new UpstreamError("The wallet is not connected.", { code: "not_connected" });
      const previous = connection.chainId;
      const switched = previous !== chainId;
      if (switched) await switchChain(config, { chainId: chainId as typeof base.id });
      try {
        return await signTypedData(config, {
          ...typedData,
          account: connection.address,
        } as Parameters<typeof signTypedData>[1]);
      } finally {
        // Leave the wallet where the dApp had it; failing to switch back must not hide the result.
        if (switched) {
          await switchChain(config, { chainId: previous as typeof base.id }).catch(() => undefined);
        }
      }
    },

    async signMessage(account, message) {
      const connector = await pick();
      if (!connector) throw new NoWalletError();
      await ensureConnected(connector);
      return signMessage(config, { account, message, connector });
    },

    watch(onChange) {
      const stops = [
        watchChainId(config, { onChange: () => onChange() }),
        watchConnection(config, { onChange: () => onChange() }),
        // EIP-6963 wallets announce when the page's scripts run, after this bridge started.
        watchConnectors(config, { onChange: () => onChange() }),
      ];
      return () => {
        for (const stop of stops) stop();
      };
    },
  };
}
