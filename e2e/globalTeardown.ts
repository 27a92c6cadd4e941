import { extensionDir } from "./extensionDir";
import { finishMetrics, metricsFile } from "./metrics";

// Prints the measured figures (latencies, script sizes, wall time) so a run's log carries them.
export default function globalTeardown(): void {
  const figures = finishMetrics(extensionDir);
  console.log(`\ne2e figures (${metricsFile}):\n${JSON.stringify(figures, null, 2)}`);
}
