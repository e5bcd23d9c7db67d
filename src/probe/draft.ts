/**
 * Draft probes: where a report names a failing test or shows a command with its error, propose
 * a spec for a human to finish. Drafts are marked `draft: true`, which never verifies a case.
 * Only characters from a conservative set are taken from the report, and every value that
 * reaches the trigger is single-quoted.
 */
import { ProbeSpec } from './spec.js';

export type DraftKind = 'pytest' | 'cargo' | 'go' | 'junit' | 'command';

/** Single-quotes a word for /bin/sh. */
export function shellQuote(word: string): string {
  return /^[\w./:=@%+-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function spec(fields: Omit<ProbeSpec, 'draft' | 'setup' | 'timeout_s' | 'repeats' | 'env' | 'network' | 'exercised'> & Partial<ProbeSpec>): ProbeSpec {
  return ProbeSpec.parse({ ...fields, draft: true });
}

function draftPytest(text: string): ProbeSpec | null {
  const m = /(?:^|[\s`'"(])((?:[\w.-]+\/)*[\w.-]+\.py(?:::[\w.-]+(?:\[[\w.,=-]*\])?)+)/m.exec(text);
  if (!m) return null;
  const id = m[1]!;
  // pytest: exit 1 = tests failed, 0 = passed; 2, 4, 5 = interrupted, usage error, nothing collected.
  return spec({
    trigger: `python -m pytest -q ${shellQuote(id)}`,
    symptom: { exit_code: 1 },
    exercised: { exit_codes: [0, 1] },
  });
}

function draftCargo(text: string): ProbeSpec | null {
  const m = /cargo test((?:[ \t]+[\w:.=-]+)+)/.exec(text);
  if (!m) return null;
  const args = m[1]!.trim().split(/\s+/);
  const valued = new Set(['-p', '--package', '--test', '--features', '--bin', '--lib', '--manifest-path']);
  let name: string | undefined;
  for (let i = 0; i < args.length; i += 1) {
    const a = args[i]!;
    if (a === '--') break;
    if (a.startsWith('-')) {
      if (valued.has(a) && a !== '--lib') i += 1;
      continue;
    }
    name = a;
    break;
  }
  if (!name) return null;
  return spec({
    trigger: `cargo test ${args.map(shellQuote).join(' ')}`,
    // Exit 101 is also a compile error, so the symptom is the failed test line itself.
    symptom: { stdout_regex: `^test \\S*${escapeRegex(name)}\\S* \\.\\.\\. FAILED` },
    exercised: { marker: 'test result:' },
  });
}

function draftGo(text: string): ProbeSpec | null {
  const m = /go test\b([^\n`]*?)[ \t]-run[= \t]+(['"]?)([\w^$|.*()/[\]-]+)\2([^\n`]*)/.exec(text);
  if (!m) return null;
  const pattern = m[3]!;
  const pkgs = `${m[1]} ${m[4]}`.split(/\s+/).filter((a) => /^\.{1,2}(\/[\w.-]*)*(\/\.\.\.)?$|^[\w.-]+(\/[\w.-]+)+(\/\.\.\.)?$/.test(a));
  let symptomRegex = `^\\s*--- FAIL: (?:${pattern.replace(/^\^/, '').replace(/\$$/, '')})`;
  try {
    new RegExp(symptomRegex);
  } catch {
    symptomRegex = '^\\s*--- FAIL: ';
  }
  return spec({
    trigger: `go test -v -run ${shellQuote(pattern)} ${(pkgs.length > 0 ? pkgs : ['./...']).map(shellQuote).join(' ')}`,
    symptom: { stdout_regex: symptomRegex },
    exercised: { marker: '=== RUN' },
  });
}

function draftJunit(text: string): ProbeSpec | null {
  const m = /(?<![\w./#-])((?:[a-z_][\w]*\.)*[A-Z]\w*)#([a-z_]\w*)\b/.exec(text);
  if (!m) return null;
  const [, cls, method] = m;
  const simple = cls!.split('.').pop()!;
  return spec({
    trigger: `mvn -q test ${shellQuote(`-Dtest=${simple}#${method}`)}`,
    symptom: { junit: { report: `target/surefire-reports/TEST-${cls}.xml`, failing_test: `${cls}#${method}` } },
    exercised: { exit_codes: [0, 1] },
  });
}

const ERROR_LINE = /\b(error|exception|panic(?:ked)?|traceback|fatal|segmentation fault|assert(?:ion)?|fail(?:ed|ure)?|wrong|unexpected|invalid|cannot|can't|not found|denied|abort(?:ed)?|crash(?:ed)?|core dumped)\b/i;

function draftCommand(text: string): ProbeSpec | null {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const cmd = /^\s*\$ +(\S.*?)\s*$/.exec(lines[i]!)?.[1];
    if (!cmd || /^(#|\$)/.test(cmd)) continue;
    for (let j = i + 1; j < Math.min(lines.length, i + 30); j += 1) {
      const line = lines[j]!.trim();
      if (/^\s*\$ /.test(lines[j]!) || line.startsWith('```')) break;
      if (line && ERROR_LINE.test(line)) {
        const message = line.length > 200 ? line.slice(0, 200) : line;
        return spec({ trigger: cmd, symptom: { stdout_contains: message, stderr_contains: message } });
      }
    }
  }
  return null;
}

const DRAFTERS: readonly [DraftKind, (text: string) => ProbeSpec | null][] = [
  ['pytest', draftPytest],
  ['cargo', draftCargo],
  ['go', draftGo],
  ['junit', draftJunit],
  ['command', draftCommand],
];

/** A draft spec and what it was drafted from, or null when the report names nothing runnable. */
export function draftProbeWithKind(reportText: string): { kind: DraftKind; spec: ProbeSpec } | null {
  for (const [kind, draft] of DRAFTERS) {
    const s = draft(reportText);
    if (s) return { kind, spec: s };
  }
  return null;
}

export function draftProbe(reportText: string): ProbeSpec | null {
  return draftProbeWithKind(reportText)?.spec ?? null;
}
