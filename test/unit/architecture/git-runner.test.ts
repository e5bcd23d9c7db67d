import { describe, expect, it } from 'vitest';
import { sources } from './sources.js';

/** The one module that starts git processes. */
const GIT_RUNNER = 'git/runner.ts';

/**
 * Modules that may start processes at all, and why. None of them may start git; a new module
 * that needs a process other than git joins this list with its reason.
 */
const PROCESS_STARTERS: ReadonlyMap<string, string> = new Map([
  [GIT_RUNNER, 'every git process'],
  ['probe/exec.ts', "a probe's or a repository's own commands, isolated"],
  ['probe/setup-cache.ts', 'cp and touch of a setup cache'],
  ['review/screener.ts', 'the configured review screener'],
]);

/** A value import of a process library (type-only imports start nothing). */
const SPAWNER_IMPORT = /^\s*import\s+(?!type\b)[^'";]*?from\s+'(?:execa|node:child_process|child_process)'/m;
/** A call of a process starter whose program is git (a string literal or a template). */
const GIT_SPAWN = /\b(?:execa|execaSync|execaNode|\$|spawn|spawnSync|execFile|execFileSync|exec|execSync)\s*\(\s*(?:'git[' ]|"git[" ]|`git[` ])/;

/** `file: problem` for each module that breaks the rule. */
export function gitSpawnViolations(files: Map<string, string>): string[] {
  const out: string[] = [];
  for (const [file, text] of files) {
    if (SPAWNER_IMPORT.test(text) && !PROCESS_STARTERS.has(file)) out.push(`${file}: imports a process library (only ${[...PROCESS_STARTERS.keys()].join(', ')} may)`);
    if (file === GIT_RUNNER) continue;
    for (const [i, line] of text.split('\n').entries()) {
      if (GIT_SPAWN.test(line)) out.push(`${file}:${i + 1}: starts git outside ${GIT_RUNNER}: ${line.trim()}`);
    }
  }
  return out;
}

describe('every git process goes through src/git/runner.ts', () => {
  it('no other module under src/ starts git, and only the listed modules start processes', () => {
    expect(gitSpawnViolations(sources())).toEqual([]);
  });

  it('the allowlist names modules that exist and start processes', () => {
    const files = sources();
    for (const file of PROCESS_STARTERS.keys()) expect(SPAWNER_IMPORT.test(files.get(file) ?? ''), file).toBe(true);
  });

  it('finds planted violations', () => {
    const planted = new Map([
      ['pairs/x.ts', "import { execa } from 'execa';\nawait execa('git', ['status']);\n"],
      ['probe/exec.ts', "import { execa } from 'execa';\nconst r = await execa(\"git\", args);\n"],
      ['stages/y.ts', "import { spawn } from 'node:child_process';\nspawn(`git`, ['log']);\n"],
      ['forward/z.ts', "import type { ResultPromise } from 'execa';\n"],
    ]);
    expect(gitSpawnViolations(planted)).toEqual([
      'pairs/x.ts: imports a process library (only git/runner.ts, probe/exec.ts, probe/setup-cache.ts, review/screener.ts may)',
      "pairs/x.ts:2: starts git outside git/runner.ts: await execa('git', ['status']);",
      'probe/exec.ts:2: starts git outside git/runner.ts: const r = await execa("git", args);',
      'stages/y.ts: imports a process library (only git/runner.ts, probe/exec.ts, probe/setup-cache.ts, review/screener.ts may)',
      "stages/y.ts:2: starts git outside git/runner.ts: spawn(`git`, ['log']);",
    ]);
  });
});
