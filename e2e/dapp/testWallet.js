// An EIP-1193 wallet announced via EIP-6963. It forwards every request to the test (which
// signs with a real viem private-key account); events come back through emitWalletEvent.
(() => {
  const listeners = new Map();
  const provider = {
    isPresendTestWallet: true,
    async request({ method, params }) {
      const answer = JSON.parse(await window.__testWallet(method, JSON.stringify(params ?? [])));
      if (answer.error) throw Object.assign(new Error(answer.error.message), answer.error);
      return answer.result;
    },
    on(event, listener) {
      if (!listeners.has(event)) listeners.set(event, new Set());
      listeners.get(event).add(listener);
    },
    removeListener(event, listener) {
      listeners.get(event)?.delete(listener);
    },
  };
  window.emitWalletEvent = (event, value) => {
    for (const listener of listeners.get(event) ?? []) listener(value);
  };
  const detail = Object.freeze({
    info: {
      uuid: "6f3c9f2e-3f0b-4f57-9e43-2d5c3c6b7a10",
      name: "presend Test Wallet",
      icon: "data:image/svg+xml,<svg xmlns='http://www.w3.org/2000/svg'/>",
      rdns: "dev.presend.testwallet",
    },
    provider,
  });
  const announce = () =>
    window.dispatchEvent(new CustomEvent("eip6963:announceProvider", { detail }));
  window.addEventListener("eip6963:requestProvider", announce);
  announce();
  window.testWalletProvider = provider;
})();
