import type { ChainFacts } from "../api/report";

/**
 * Wallets that are contracts of their own: a Safe and a smart account. Their code (a Safe's
 * singleton, an account's implementation) decides what a deposit does, and no code hash vouches
 * for it, so only the receive simulation shows whether a deposit stays.
 * @example deployedWalletKinds.includes(facts.kind)
 */
export const deployedWalletKinds: readonly ChainFacts["kind"][] = ["safe", "smart-account"];
