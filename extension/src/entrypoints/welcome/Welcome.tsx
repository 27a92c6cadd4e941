import { formatUsdc } from "@presend/shared/pricing/formatUsdc";
import { routePrices } from "@presend/shared/pricing/routePrices";
import { browser } from "wxt/browser";
import { useStoredValue } from "../../lib/queries/useStoredValue";
import { settings } from "../../lib/storage/items";
import { channelDepositDefault } from "../../lib/storage/schemas";

/** What a new user needs before the first address: the chip, the price and the signature. */
export function Welcome() {
  const current = useStoredValue(settings);
  const cap = current.data ? formatUsdc(BigInt(current.data.dailyCapUnits)) : null;
  // A deposit of 0 in the settings means every check is paid on its own: no channel to explain.
  const depositUnits = BigInt(current.data?.channelDepositUnits ?? channelDepositDefault);
  return (
    <main className="presend welcome">
      <h1>presend checks an address before you send to it</h1>
      <img
        src="/welcome/card.png"
        width={960}
        height={370}
        alt="A send form with an address pasted: presend's card beside the field says Not checked yet, the address is typed correctly, and offers a check for $0.01 or a deep check for $0.05."
      />
      <section data-testid="welcome-chip">
        <h2>The chip</h2>
        <p>
          Paste or type an address into any field and a small chip appears beside it. For free, on
          your computer, it tells you what can be known without asking anyone: a typo, a zero or
          burn address, a token contract, an address that looks like one you used before.
        </p>
        <p>
          Grey means <strong>not checked yet</strong>, never "safe". Red means don't send. Click the
          chip for the details; on a small screen they open in the browser's side panel, so the page
          stays visible. The card's last line turns presend off on that site.
        </p>
      </section>
      <section data-testid="welcome-price">
        <h2>The price</h2>
        <p>
          A check reads the address on one chain for {formatUsdc(routePrices.check)}; a deep check
          reads all five chains for {formatUsdc(routePrices.deep)}. You pay in USDC on Base, from
          the wallet of the page you are on, and only when you click a price button.
        </p>
        <p>
          {cap
            ? `You never spend more than ${cap} a day`
            : "You never spend more than your daily cap"}{" "}
          (change it in the settings). A check that fails is not charged. A result is shown again,
          free, for 10 minutes, in every tab.
        </p>
      </section>
      <section data-testid="welcome-signature">
        <h2>The signature</h2>
        <p>
          Before your wallet opens, the card says what you will sign: one{" "}
          {formatUsdc(routePrices.check)} USDC payment to presend, which can take nothing else, and
          a Cancel button. Your wallet shows it as a "TransferWithAuthorization" of{" "}
          {routePrices.check.toString()} (USDC counts in millionths) on Base. If it shows another
          amount, recipient or kind of request, reject it: the page you are on reaches your wallet
          first and may have changed it. With several wallets, the one the site is connected to
          pays. If the site is not connected to your wallet, it asks you to connect first; you can
          refuse, and nothing is charged.
        </p>
        {depositUnits > 0n && (
          <p>
            Where presend's server offers a payment channel, the first check asks instead for one
            deposit of {formatUsdc(depositUnits)} (a "ReceiveWithAuthorization" to the channel's
            deposit contract; the amount is in the settings, within the daily cap). Later checks pay
            from it without a wallet prompt, signed by a key that stays inside the extension, and
            the popup closes the channel and sends the rest back to your wallet.
          </p>
        )}
      </section>
      <div className="row">
        <button
          type="button"
          className="primary"
          data-action="settings"
          onClick={() => void browser.runtime.openOptionsPage()}
        >
          Open the settings
        </button>
      </div>
    </main>
  );
}
