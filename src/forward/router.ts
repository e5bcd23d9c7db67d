import { compileWorkflows } from '../routing/index.js';
import type { RouteContext } from '../model/forward.js';

/** Routes path sets against workflows compiled once (the signals route thousands of sets). */
export function compiledRouter(
  workflows: readonly { path: string; text: string }[],
  context: RouteContext,
): (paths: readonly string[]) => string[] {
  const compiled = compileWorkflows(workflows.map((w) => ({ path: w.path, text: w.text })));
  return (paths) => [...compiled.activatedFor([...paths], context)];
}
