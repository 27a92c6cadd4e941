import { misspelledVariables } from "../config/misspelledVariables";
import { startFacilitatorService } from "./startFacilitatorService";

/**
 * `presend facilitator`: runs the facilitator service until SIGTERM or SIGINT, then drains the
 * settlements in flight and resolves with the exit code.
 * @example process.exitCode = await runFacilitatorCommand(process.env);
 */
export async function runFacilitatorCommand(
  env: Record<string, string | undefined>,
): Promise<number> {
  for (const typo of misspelledVariables(env)) {
    process.stderr.write(
      `presend facilitator ignores ${typo.described}: not a setting it reads.\n`,
    );
  }
  let service: Awaited<ReturnType<typeof startFacilitatorService>>;
  try {
    service = await startFacilitatorService(env);
  } catch (error) {
    // A bad setting is the operator's to fix: say which, without a stack trace.
    process.stderr.write(
      `presend facilitator could not start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    return 1;
  }
  const running = service;
  return new Promise((resolve) => {
    const stop = () => {
      process.off("SIGTERM", stop);
      process.off("SIGINT", stop);
      running.stop().then(
        () => resolve(0),
        (error: unknown) => {
          running.logger.error({ err: error }, "while stopping");
          resolve(1);
        },
      );
    };
    process.on("SIGTERM", stop);
    process.on("SIGINT", stop);
  });
}
