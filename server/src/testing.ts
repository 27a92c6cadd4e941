// What the e2e suite may use of the server (`@presend/server/testing`): the API on a local world
// exactly as `npm start` runs it, and the pieces to compose a second API beside it.
export { type ComposedServer, type ComposeOptions, composeServer } from "./composeServer";
export { type Config, loadConfig } from "./config/loadConfig";
export { freePort } from "./http/freePort";
export { listen } from "./http/listen";
export { type LocalDemo, startLocalDemo } from "./localDemo/startLocalDemo";
export { worldConfig } from "./localDemo/worldConfig";
export { type FaultyRpc, startFaultyRpc } from "./payments/testing/startFaultyRpc";
export type { RunningServer } from "./startServer";
