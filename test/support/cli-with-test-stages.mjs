// Runs the real CLI with the test-only `squares` stage appended to the registry.
// Usage: [R2V_TEST_FAIL=n:kind,...] node test/support/cli-with-test-stages.mjs <count> <delayMs> <r2v args...>
import { register } from 'tsx/esm/api';

register();
const { runCli } = await import('../../src/cli.ts');
const { squaresStage } = await import('./test-stages.ts');
const { MinerError } = await import('../../src/errors.ts');
const [count, delayMs, ...argv] = process.argv.slice(2);
// R2V_TEST_FAIL="3:transient,7:timeout": those items fail with an error of that kind.
const fails = new Map((process.env.R2V_TEST_FAIL ?? '').split(',').filter(Boolean).map((e) => {
  const [n, kind] = e.split(':');
  return [Number(n), kind];
}));
const onProcess = (n) => {
  if (fails.has(n)) throw new MinerError(fails.get(n), `square ${n} failed`);
};
const stage = squaresStage({ count: Number(count), delayMs: Number(delayMs), onProcess });
// R2V_TEST_PLAN_BUG=1: planning throws an unclassified error (a bug in the stage).
if (process.env.R2V_TEST_PLAN_BUG) stage.plan = () => { throw new TypeError('squares plan broke'); };
process.exitCode = await runCli(argv, { extraStages: [stage] });
