import { constants } from "node:os";
import { ConfigurationError } from "@presend/shared/errors/ConfigurationError";
import { configDir } from "./openPinStore";
import { exitCodes, runCli } from "./runCli";

/**
 * The `presend` command as the bin runs it: real environment, stdout and stderr. `presend mcp`
 * serves MCP on stdio instead (stdout is the protocol then, so nothing else is printed there).
 * @example process.exitCode = await main(process.argv.slice(2));
 */
export async function main(argv: readonly string[]): Promise<number | undefined> {
  if (argv[0] !== "mcp") {
    // A reader that stopped early (`| head -1`, `| true`, `2>&1 | head -c 20`) is no failure of
    // the run: what it did not read is dropped, and the exit code stays the run's (a paid check's
    // receipt is on whichever stream is still read). Unhandled, the write's EPIPE ended the run
    // with a stack trace and exit 1, which reads as "address not valid": on stderr, after the
    // payment was settled and before its report was fetched.
    for (const stream of [process.stdout, process.stderr]) {
      stream.on("error", (error: NodeJS.ErrnoException) => {
        if (error.code !== "EPIPE") throw error;
      });
    }
  }
  if (argv[0] === "facilitator") {
    // Loaded only for this command: the client commands start without the server's modules.
    const { runFacilitatorCommand } = await import("../facilitatorService/runFacilitatorCommand");
    return runFacilitatorCommand(process.env);
  }
  if (argv[0] === "rotate-attestation-key") {
    const { runRotateKeyCommand } = await import("./runRotateKeyCommand");
    return runRotateKeyCommand(argv.slice(1), {
      env: process.env,
      stdout: (text) => process.stdout.write(`${text}\n`),
      stderr: (text) => process.stderr.write(`${text}\n`),
    });
  }
  if (argv[0] === "mcp") {
    // Loaded only for `presend mcp`: the MCP SDK would slow every other command's start.
    const { runMcpServer } = await import("../mcp/runMcpServer");
    try {
      await runMcpServer(process.env, configDir(process.env));
    } catch (error) {
      // A wrong setting is the operator's to fix: one line naming it (an MCP host shows stderr
      // in its logs), the usage exit code, no stack trace.
      if (!(error instanceof ConfigurationError)) throw error;
      process.stderr.write(`presend mcp: ${error.shortMessage}\n`);
      return exitCodes.usage;
    }
    return undefined;
  }
  let dir: string;
  try {
    dir = configDir(process.env);
  } catch (error) {
    if (!(error instanceof ConfigurationError)) throw error;
    process.stderr.write(`presend: ${error.shortMessage}\n`);
    return exitCodes.usage;
  }
  return runCli(argv, {
    env: process.env,
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(`${text}\n`),
    configDir: dir,
    onInterrupt: (handler) => {
      // Ended at once, in the handler: nothing of the check runs on after what was printed.
      const interrupt = (signal: NodeJS.Signals) =>
        process.exit(handler() ?? 128 + constants.signals[signal]);
      // SIGHUP too: the terminal or the CI runner's session that started the run went away.
      // Unhandled, it ended the run silently, the receipt of a payment already sent unsaid.
      const signals = ["SIGINT", "SIGTERM", "SIGHUP"] as const;
      for (const signal of signals) process.once(signal, interrupt);
      return () => {
        for (const signal of signals) process.off(signal, interrupt);
      };
    },
  });
}
