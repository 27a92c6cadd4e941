// What the tests, the bench, the e2e suite, the snapshot generator and `npm start` use of the
// local world. Nothing of it runs in production: the server takes plain configuration.
export {
  measureSettlementCost,
  type SettlementCost,
  type SettlementCostOptions,
} from "./channels/measureSettlementCost";
export {
  type ChannelPayment,
  type ChannelStack,
  type ChannelStackOptions,
  startChannelStack,
} from "./channels/startChannelStack";
export { artifacts } from "./contracts/artifacts";
export { publishedArtifacts } from "./contracts/publishedArtifacts";
export { createAndUseSimpleAccount } from "./createAndUseSimpleAccount";
export {
  create2Deployer,
  type DemoAddress,
  demoAccounts,
  demoAddresses,
  demoContracts,
  entryPointV08Salt,
  safeInitializer,
} from "./demoWorld";
export { deployCoinbaseSmartWallet } from "./deployCoinbaseSmartWallet";
export { type DevnetAccount, devnetAccounts } from "./devnetAccounts";
export { type DevnetClient, devnetClient } from "./devnetClient";
export { devnetPrivateKey } from "./devnetPrivateKey";
export {
  depositorAccount,
  devnetL1FeeValues,
  installOpStackFeeOracle,
  l1BlockAddress,
} from "./installOpStackFeeOracle";
export { mintStablecoin } from "./mintStablecoin";
export { prepareDevnetChain } from "./prepareDevnetChain";
export { entryPointV07Salt, recipientKinds } from "./recipientKinds";
export { demoAddressListFile, lookalikeOf, senderWorld } from "./senderWorld";
export { type AnvilInstance, type StartAnvilOptions, startAnvil } from "./startAnvil";
export { type StartWorldOptions, startWorld, type World, type WorldChain } from "./startWorld";
export { usdcBalanceOnBase } from "./usdcBalanceOnBase";
export { worldRpcUrls } from "./worldRpcUrls";
