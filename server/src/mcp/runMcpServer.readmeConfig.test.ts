import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { generatePrivateKey } from "viem/accounts";
import { afterAll, describe, expect, it } from "vitest";
import { z } from "zod";

const repoRoot = fileURLToPath(new URL("../../..", import.meta.url));

const HostConfigSchema = z.object({
  mcpServers: z.object({
    presend: z.object({
      command: z.string(),
      args: z.array(z.string()),
      cwd: z.string().optional(),
      env: z.record(z.string(), z.string()),
    }),
  }),
});

/** The MCP host configuration the README's "The MCP server" section gives to paste. */
function readmeHostConfig() {
  const readme = readFileSync(join(repoRoot, "README.md"), "utf8");
  const section = readme.slice(readme.indexOf("### The MCP server\n"));
  const block = /```json\n([\s\S]*?)```/.exec(section)?.[1];
  expect(block, "README's MCP section has a JSON host config").toBeDefined();
  return HostConfigSchema.parse(JSON.parse(block as string)).mcpServers.presend;
}

// A newcomer pastes the README's config into an MCP host. Hosts start the server in a directory
// of their own (Claude Desktop at /, Claude Code and Cursor ignore `cwd`), so the config must not
// lean on the working directory: there `npx presend` resolves nothing local and would fetch the
// npm registry's package of that name, handing it the paying key.
describe("the README's MCP host config", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("names the CLI by its path, not through npx and a working directory", () => {
    const config = readmeHostConfig();
    expect(config.command).not.toBe("npx");
    expect(config.cwd).toBeUndefined();
  });

  it("starts presend mcp from a host's own directory and lists the five tools", async () => {
    const config = readmeHostConfig();
    // Only the command may be checked above without running it: npx must never reach here.
    expect(config.command).toBe("node");
    const hostDir = mkdtempSync(join(tmpdir(), "presend-mcp-host-"));
    dirs.push(hostDir);
    const client = new Client({ name: "readme-host", version: "1.0.0" });
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: config.args.map((arg) => arg.replace("/path/to/presend/", repoRoot)),
        cwd: hostDir,
        env: {
          PATH: process.env.PATH ?? "",
          HOME: hostDir,
          ...config.env,
          // The README's placeholder; the tools are listed without paying.
          PRESEND_PRIVATE_KEY: generatePrivateKey(),
        },
        stderr: "pipe",
      }),
    );
    try {
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual([
        "check",
        "close_channel",
        "deep",
        "receipt",
        "validate",
      ]);
    } finally {
      await client.close();
    }
  });
});
