import { UsageError } from '../errors.js';
import type { Stage } from '../stages/types.js';

export interface StageSelection {
  readonly stage?: string;
  readonly from?: string;
  readonly until?: string;
}

/** Picks the stages to run from the ordered registry; unknown names are usage errors. */
export function selectStages<S extends Stage<any>>(registry: readonly S[], sel: StageSelection): S[] {
  const names = registry.map((s) => s.name);
  const indexOf = (name: string, flag: string): number => {
    const i = names.indexOf(name);
    if (i < 0) throw new UsageError(`${flag} ${name}: unknown stage (stages: ${names.join(', ')})`);
    return i;
  };
  if (sel.stage !== undefined) {
    if (sel.from !== undefined || sel.until !== undefined) throw new UsageError('--stage cannot be combined with --from or --until');
    return [registry[indexOf(sel.stage, '--stage')]!];
  }
  const from = sel.from !== undefined ? indexOf(sel.from, '--from') : 0;
  const until = sel.until !== undefined ? indexOf(sel.until, '--until') : registry.length - 1;
  if (from > until) throw new UsageError(`--from ${sel.from} comes after --until ${sel.until}`);
  return registry.slice(from, until + 1);
}
