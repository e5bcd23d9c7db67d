// Runs the real CLI with the test-only `squares` stage appended to the registry.
// Usage: node test/support/cli-with-test-stages.mjs <count> <delayMs> <r2v args...>
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../../src/cli.ts');
const { squaresStage } = await import('./test-stages.ts');
const [count, delayMs, ...argv] = process.argv.slice(2);
process.exitCode = await runCli(argv, {
  extraStages: [squaresStage({ count: Number(count), delayMs: Number(delayMs) })],
});
