/**
 * Vitest global setup: builds dist/ once per test run when a source is newer than the last build,
 * so tests that spawn bin/r2v.js (or run the demo, which uses the compiled CLI) never run stale code.
 */
import { ensureBuild } from '../../scripts/build.mjs';

export default async function setup(): Promise<void> {
  await ensureBuild();
}
