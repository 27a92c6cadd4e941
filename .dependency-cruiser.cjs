// The dependency rules of ARCHITECTURE.md ("Dependency direction"), checked by `npm run check`
// (`npm run deps`). Workspace packages resolve through node_modules/@presend/<name>/ (symlinks are
// kept), so a rule can tell a package import from a relative path into another workspace.
const workspaces = "shared|client|devnet|server|snapshots|extension|e2e";
const ours = (names) => `^node_modules/@presend/(${names})/`;
const tests = "\\.(test|spec)\\.tsx?$";
/**
 * The roles of a paid request under server/src/payments/, in the one direction their imports
 * point: routes compose the middleware (resourceServer: ledger, envelope, guard), which reads the
 * settlement step's vocabulary, which writes through the records, which read the intake's types
 * and ask Base through facilitator/ (the facilitator and the payment chain).
 */
const paymentRoles = ["routes", "resourceServer", "settlement", "records", "intake", "facilitator"];

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: "cross-workspace-relative-import",
      comment:
        "Another workspace is reached through its package name and declared exports, never through ../../x/src/... paths.",
      severity: "error",
      from: { path: `^(${workspaces})/` },
      to: { dependencyTypes: ["local"], pathNot: "^$1/" },
    },
    {
      name: "undeclared-package",
      comment:
        'Every package a workspace imports is declared in its package.json (or the root\'s dev tools); @presend packages as "*".',
      severity: "error",
      from: {},
      to: { dependencyTypes: ["npm-no-pkg", "npm-unknown"] },
    },
    {
      name: "not-exported",
      comment:
        "An import that does not resolve: a file another package does not list in its exports, or a typo.",
      severity: "error",
      from: {},
      to: { couldNotResolve: true, pathNot: "^(wxt/|#imports$|virtual:|~/)" },
    },
    {
      name: "shared-imports-nothing-of-ours",
      comment: "shared is the bottom of the graph: it depends on no other workspace.",
      severity: "error",
      from: { path: "^shared/" },
      to: { path: ours("client|devnet|server|snapshots|extension|e2e") },
    },
    {
      name: "shared-and-client-are-browser-safe",
      comment: "shared and client run in the extension: no node: modules outside their tests.",
      severity: "error",
      from: { path: "^(shared|client)/", pathNot: tests },
      to: { dependencyTypes: ["core"] },
    },
    {
      name: "client-depends-only-on-shared",
      severity: "error",
      from: { path: "^client/" },
      to: { path: ours("client|devnet|server|snapshots|extension|e2e") },
    },
    {
      name: "client-testing-entry-only-in-tests",
      comment:
        "@presend/client/testing (the stand-in API, the pin store contract) serves tests: production code never imports it, so no bundle carries it. The extension's payments tests reach it through one re-export.",
      severity: "error",
      from: {
        pathNot: [tests, "^client/src/testing/", "^extension/src/lib/payments/fakePaidApi\\.ts$"],
      },
      to: { path: "^(node_modules/@presend/)?client/src/testing/" },
    },
    {
      name: "devnet-depends-only-on-shared",
      comment: "The local world knows nothing of the server that runs on it.",
      severity: "error",
      from: { path: "^devnet/" },
      to: { path: ours("client|server|snapshots|extension|e2e") },
    },
    {
      name: "server-depends-on-shared-client-devnet",
      severity: "error",
      from: { path: "^server/" },
      to: { path: ours("snapshots|extension|e2e") },
    },
    {
      name: "production-server-never-imports-devnet",
      comment:
        "Production code takes plain configuration. Only npm start's local demo (server/src/localDemo/), the test harnesses, tests, bench and scale use the local world.",
      severity: "error",
      from: {
        path: "^server/(src|bin)/",
        pathNot: [
          tests,
          "^server/src/localDemo/",
          "^server/src/testing\\.ts$",
          "^server/src/payments/testing/",
        ],
      },
      to: { path: ours("devnet") },
    },
    {
      name: "payment-intake-reads-only",
      comment:
        "The payment intake is the first step of a paid request: it reads the header into the request context and imports nothing that runs after it (the records' store, receipts; the later roles by payment-roles-point-one-way).",
      severity: "error",
      from: { path: "^server/src/payments/intake/", pathNot: tests },
      to: { path: "^server/src/(payments/testing/|paymentRecords/|receipts/)" },
    },
    // The roles of a paid request, each importing only the roles after it in this list, and none
    // but routes/ the composition (createPayments.ts), which imports every role: through it a
    // later role would reach the earlier ones.
    ...paymentRoles.slice(1).map((role, index) => ({
      name: `payment-roles-point-one-way-${role}`,
      comment: `payments/${role}/ imports no role before it in ${paymentRoles.join(" -> ")}, nor the composition that holds them all.`,
      severity: "error",
      from: { path: `^server/src/payments/${role}/`, pathNot: tests },
      to: {
        path: `^server/src/payments/((${paymentRoles.slice(0, index + 1).join("|")})/|createPayments\\.ts$)`,
      },
    })),
    {
      name: "payment-records-have-one-owner",
      comment:
        "Only payments/records/ reaches the records store: every other step, the batch-settlement channels included, reads and writes a record through it (the composition excepted). The leases (holdLease, inFlightLock and its in-memory implementation) live beside the store and are free to use.",
      severity: "error",
      from: {
        path: "^server/src/(payments|receipts)/",
        pathNot: [
          tests,
          "^server/src/payments/(records|testing)/",
          "^server/src/payments/createPayments\\.ts$",
        ],
      },
      to: {
        path: "^server/src/paymentRecords/",
        pathNot:
          "^server/src/paymentRecords/(holdLease|inFlightLock|createMemoryInFlightLock)\\.ts$",
      },
    },
    {
      name: "extension-depends-only-on-client-and-shared",
      comment:
        "The extension never imports the server (nor the devnet): it calls the API over HTTP.",
      severity: "error",
      from: { path: "^extension/" },
      to: { path: ours("devnet|server|snapshots|e2e") },
    },
    {
      name: "snapshots-depend-on-shared-and-devnet",
      severity: "error",
      from: { path: "^snapshots/" },
      to: { path: ours("client|server|extension|e2e") },
    },
    {
      name: "nothing-imports-e2e",
      severity: "error",
      from: { pathNot: "^e2e/" },
      to: { path: ours("e2e") },
    },
  ],
  options: {
    doNotFollow: { path: "node_modules" },
    exclude: { path: "(^|/)(\\.output|\\.wxt)/" },
    tsConfig: { fileName: "tsconfig.base.json" },
    // Type-only imports count: a type from another package is a dependency on it too.
    tsPreCompilationDeps: true,
    preserveSymlinks: true,
    // Root devDependencies (vitest, fast-check, tsx) serve every workspace.
    combinedDependencies: true,
    enhancedResolveOptions: {
      exportsFields: ["exports"],
      conditionNames: ["import", "require", "node", "default", "types"],
      extensions: [".ts", ".tsx", ".js", ".mjs", ".cjs", ".json"],
    },
  },
};
