import { describe, expect, it } from "vitest";
import { configVariables } from "./loadConfig";
import { unknownSettings } from "./unknownSettings";

describe("unknownSettings", () => {
  it("names a setting's typo in the environment with the setting it was meant to be", () => {
    const env = ["CHANELS", "PAYTO", "DATABASE_URI", "RPC_URLS_ARBITRUN", "LOG_LEVL"];
    expect(
      unknownSettings(env, configVariables, "typos").map((setting) => setting.described),
    ).toEqual([
      "CHANELS (did you mean CHANNELS?)",
      "PAYTO (did you mean PAY_TO?)",
      "DATABASE_URI (did you mean DATABASE_URL?)",
      "RPC_URLS_ARBITRUN (did you mean RPC_URLS_ARBITRUM?)",
      "LOG_LEVL (did you mean LOG_LEVEL?)",
    ]);
  });

  it("leaves other programs' variables and the settings themselves alone in the environment", () => {
    const env = [
      ...configVariables,
      "PATH",
      "HOME",
      "HOSTNAME",
      "NODE_ENV",
      "NODE_OPTIONS",
      "LANG",
      "TERM",
      "SHELL",
      "npm_config_cache",
      "PWD",
      "OLDPWD",
      "XDG_CONFIG_HOME",
      "KUBERNETES_SERVICE_HOST",
      "PRESEND_PRIVATE_KEY",
    ];
    expect(unknownSettings(env, configVariables, "typos")).toEqual([]);
  });

  it("names every unknown key of a settings file, with a setting only where it looks like a typo", () => {
    expect(unknownSettings(["PORT", "CHANELS", "colour"], configVariables, "all")).toEqual([
      { name: "CHANELS", nearest: "CHANNELS", described: "CHANELS (did you mean CHANNELS?)" },
      { name: "colour", nearest: null, described: "colour" },
    ]);
  });
});
