import { runFacilitatorCommand } from "../facilitatorService/runFacilitatorCommand";
import { configDir } from "./openPinStore";
import { runCli } from "./runCli";

/**
 * The `presend` command as the bin runs it: real environment, stdout and stderr.
 * @example process.exitCode = await main(process.argv.slice(2));
 */
export function main(argv: readonly string[]): Promise<number> {
  if (argv[0] === "facilitator") return runFacilitatorCommand(process.env);
  return runCli(argv, {
    env: process.env,
    stdout: (text) => process.stdout.write(`${text}\n`),
    stderr: (text) => process.stderr.write(`${text}\n`),
    configDir: configDir(process.env),
  });
}
