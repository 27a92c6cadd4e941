// zod's English messages, for the scripts every page gets (the content script, the card): they
// parse to accept or drop and never show zod's words, so one sentence stands for all of them.
// wxt.config.ts swaps it in for zod's own locale in those builds.
export default function plainMessages() {
  return { localeError: () => "Invalid input" };
}
