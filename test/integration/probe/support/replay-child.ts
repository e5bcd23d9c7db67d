/** Runs one replay from a JSON argument; the kill test SIGKILLs this process mid-run. */
import { replay } from '../../../../src/probe/replay.js';
import { toProbeSpec } from '../../../../src/probe/spec.js';

const args = JSON.parse(process.argv[2]!) as { gitDir: string; gold: string; workRoot: string; spec: unknown };
await replay({ gitDir: args.gitDir, gold: args.gold, workRoot: args.workRoot, spec: toProbeSpec(args.spec, 'argv') });
