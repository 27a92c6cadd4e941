import { InputError } from "@presend/shared/errors/InputError";
import { walkCauses } from "@presend/shared/errors/PresendError";
import type { TypedDataDefinition } from "viem";
import { defineUnlistedScript } from "wxt/utils/define-unlisted-script";
import { BridgeRequestSchema } from "../../lib/bridge/bridgeRequest";
import { captureCrypto } from "../../lib/bridge/captureCrypto";
import { parseWithBigints } from "../../lib/bridge/jsonWithBigints";
import { keyFromScript } from "../../lib/bridge/scriptKeyHandOff";
import { openSecureChannel } from "../../lib/bridge/secureChannel";
import type { MessageFailure } from "../../lib/messaging/protocol";
import { createPageWallet } from "../../lib/wallet/createPageWallet";
import { isUserRejection } from "../../lib/wallet/isUserRejection";
import { NoWalletError } from "../../lib/wallet/NoWalletError";
import { SwitchDeclinedError } from "../../lib/wallet/SwitchDeclinedError";
import { walletFailure } from "../../lib/wallet/walletFailure";

// The MAIN-world half of the extension: the only code that can reach the dApp's wallet. It runs
// in the page's world, so the page can observe or disturb it; it holds no authority. It answers
// authenticated requests from the ISOLATED content script and nothing else. It is not in every
// page: the content script injects it when the page wallet is needed (the card opened, a paid
// check clicked, the popup asking), so a page where nobody checks an address never loads wagmi.
export default defineUnlistedScript(() => {
  const { subtle, randomId } = captureCrypto();

  // Only while the script's top level runs is it document.currentScript.
  const keyReceived = keyFromScript(document.currentScript);
  const wallet = createPageWallet();

  keyReceived.then(
    async (keyHex) => {
      const channel = await openSecureChannel({
        win: window,
        side: "main",
        keyHex,
        subtle,
        randomId,
        onMessage: (body) => void answer(body),
      });

      const failure = (error: unknown): MessageFailure => {
        const switchDeclined = walkCauses(error, (e) => e instanceof SwitchDeclinedError);
        if (switchDeclined instanceof SwitchDeclinedError) {
          return { code: "switch_declined", message: switchDeclined.shortMessage };
        }
        if (isUserRejection(error))
          return { code: "rejected", message: "You declined in the wallet." };
        if (walkCauses(error, (e) => e instanceof NoWalletError)) {
          return { code: "no_wallet", message: "No wallet in this page." };
        }
        const fromWallet = walletFailure(error);
        if (fromWallet) return fromWallet;
        const message = error instanceof Error ? error.message : String(error);
        return { code: "failed", message: message.split("\n")[0] ?? message };
      };

      async function answer(body: unknown) {
        const request = BridgeRequestSchema.safeParse(body);
        if (!request.success) return;
        const { id } = request.data;
        try {
          let data: unknown;
          if (request.data.kind === "info") data = await wallet.info();
          else if (request.data.kind === "account") data = { address: await wallet.account() };
          else if (request.data.kind === "code") {
            data = (await wallet.code(request.data.address as `0x${string}`)) ?? {
              chainId: null,
              contract: false,
            };
          } else if (request.data.kind === "call") {
            const { chainId, to, data: callData } = request.data;
            data = {
              data: await wallet.call(chainId, to as `0x${string}`, callData as `0x${string}`),
            };
          } else if (request.data.kind === "signMessage") {
            data = {
              signature: await wallet.signMessage(
                request.data.account as `0x${string}`,
                request.data.message,
              ),
            };
          } else {
            const typedData = parseWithBigints(request.data.typedData) as TypedDataDefinition;
            const chainId = Number(
              (typedData.domain as { chainId?: unknown } | undefined)?.chainId,
            );
            if (!Number.isInteger(chainId)) throw new InputError("Typed data without a chain id.");
            data = { signature: await wallet.signOn(chainId, typedData) };
          }
          await channel.post({ re: id, ok: true, data });
        } catch (error) {
          await channel.post({ re: id, ok: false, error: failure(error) });
        }
      }

      await channel.post({ event: "ready" });
      wallet.watch(() => {
        wallet.info().then(
          (info) => channel.post({ event: "wallet", info }),
          () => undefined,
        );
      });
    },
    () => undefined,
  );
});
