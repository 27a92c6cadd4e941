import { fileURLToPath } from "node:url";
import { defineConfig } from "wxt";

// The API the extension pays and calls. A build-time default (the local world in development);
// users can point it elsewhere in the options page, which is why hosts are optional below.
const apiUrl = process.env.WXT_PRESEND_API_URL ?? "http://127.0.0.1:8402";

function originPattern(url: string): string {
  const { protocol, hostname } = new URL(url);
  // Match patterns carry no port: the pattern covers every port of the host.
  return `${protocol}//${hostname}/*`;
}

export default defineConfig({
  srcDir: "src",
  // MV3 everywhere, Firefox included (WXT would build MV2 for it by default).
  manifestVersion: 3,
  // Explicit imports only: auto-imports hide dependencies.
  imports: false,
  modules: ["@wxt-dev/module-react"],
  zip: { artifactTemplate: "presend-{{version}}-{{browser}}.zip" },
  hooks: {
    // The content script runs on every page, and its card (verdict-ui) on pages with an address:
    // they render with Preact (the same components, through
    // preact/compat) instead of react-dom, a tenth of the weight. Extension pages keep React.
    "vite:build:extendConfig": (entrypoints, config) => {
      const inPages = ["content", "page-runtime", "verdict-ui"];
      if (!entrypoints.some((entry) => inPages.includes(entry.name))) return;
      config.resolve ??= {};
      config.resolve.alias = [
        { find: /^react-dom\/client$/, replacement: "preact/compat/client" },
        { find: /^react-dom$/, replacement: "preact/compat" },
        { find: /^react\/jsx-runtime$/, replacement: "preact/jsx-runtime" },
        { find: /^react$/, replacement: "preact/compat" },
        // zod's English messages (about 1 kB gzip) are never shown by these scripts.
        {
          find: /^\.\.\/locales\/en\.js$/,
          replacement: fileURLToPath(
            new URL("./src/lib/messaging/zodPlainMessages.ts", import.meta.url),
          ),
        },
        // zod's JSON Schema writer (about 4 kB gzip), which these scripts never call.
        {
          find: /^\.\.\/core\/(json-schema-processors|to-json-schema)\.js$/,
          replacement: fileURLToPath(
            new URL("./src/lib/messaging/zodWithoutJsonSchema.ts", import.meta.url),
          ),
        },
      ];
      // The shared schemas' descriptions document the HTTP API (OpenAPI); these scripts only
      // parse with them, so the text (about 0.6 kB gzip) is left out of their bundles.
      config.plugins ??= [];
      config.plugins.push({
        name: "presend:drop-schema-descriptions",
        enforce: "pre",
        transform(code: string, id: string) {
          if (!/[/\\]shared[/\\]api[/\\][^/\\]+\.ts$/.test(id)) return null;
          return code.replace(/\.describe\(\s*("(?:[^"\\]|\\.)*"|`[^`$]*`)\s*,?\s*\)/g, "");
        },
      });
    },
  },
  vite: () => ({
    define: { "import.meta.env.WXT_PRESEND_API_URL": JSON.stringify(apiUrl) },
    build: { chunkSizeWarningLimit: 2000 },
  }),
  manifest: ({ browser }) => ({
    name: "presend",
    description:
      "Pre-send safety check for EVM addresses: local checksum and lookalike warnings, paid on-chain checks.",
    permissions: ["storage", "activeTab"],
    host_permissions: [originPattern(apiUrl)],
    optional_host_permissions: ["http://*/*", "https://*/*"],
    // Loaded on demand from the page's frames: the wallet bridge when the page wallet is needed
    // (see entrypoints/wallet-bridge; a script in the MAIN world), the badge's runtime when a
    // frame first needs it (entrypoints/page-runtime) and the card on the first address entered
    // (entrypoints/verdict-ui), both imported into the content script's isolated world.
    // scripting.executeScript would need host permission for every site; these need none.
    web_accessible_resources: [
      {
        resources: ["wallet-bridge.js", "page-runtime.js", "verdict-ui.js"],
        matches: ["http://*/*", "https://*/*"],
        // Chromium serves these under the fixed extension id unless asked otherwise, so any page
        // could fetch them to learn the extension is installed. A per-session id (what Firefox
        // always does) leaves a page nothing to probe; runtime.getURL gives our scripts the id.
        ...(browser === "firefox" ? {} : { use_dynamic_url: true }),
      },
    ],
    // Firefox requires an add-on id for MV3 and a minimum version with the features used here
    // (MAIN-world content scripts, match_origin_as_fallback).
    ...(browser === "firefox"
      ? {
          browser_specific_settings: {
            gecko: {
              id: "presend@presend.dev",
              strict_min_version: "128.0",
              // A paid check sends the address and a payment to the API, on the person's click.
              data_collection_permissions: { required: ["financialAndPaymentInfo"] },
            },
          },
        }
      : {}),
  }),
});
