/**
 * Draft probes: where a report names a failing test or shows a command with its error, propose
 * a spec for a human to finish. Drafts are marked `draft: true`, which never verifies a case.
 * Only characters from a conservative set are taken from the report, and every value that
 * reaches the trigger is single-quoted. A shown command with anything outside that set (`;`, `|`,
 * `$`, quotes, redirections, …) is never copied: its draft gets a placeholder trigger that cannot
 * verify anything and a note asking for a human.
 */
import { ProbeSpec } from './spec.js';

export type DraftKind = 'pytest' | 'cargo' | 'go' | 'junit' | 'command';

/** Words made only of these characters mean the same to /bin/sh quoted or not. */
const SAFE_WORD = /^[\w./:=@%+-]+$/;

/** Single-quotes a word for /bin/sh. */
export function shellQuote(word: string): string {
  return SAFE_WORD.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** The trigger of a command draft that needs a human: it prints nothing and exits 127, which reads as "not exercised". */
export const HUMAN_TRIGGER = ": 'draft: write this trigger by hand, the report command was not copied'; exit 127";

const escapeRegex = (s: string): string => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function spec(fields: Omit<ProbeSpec, 'draft' | 'setup' | 'setup_cache' | 'timeout_s' | 'repeats' | 'env' | 'network' | 'exercised'> & Partial<ProbeSpec>): ProbeSpec {
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

/** A drafted spec, and why it needs a human beyond the usual review (null when it does not). */
interface Drafted {
  readonly spec: ProbeSpec;
  readonly needsHuman: string | null;
}

function draftCommand(text: string): Drafted | null {
  const lines = text.split(/\r?\n/);
  for (let i = 0; i < lines.length; i += 1) {
    const cmd = /^\s*\$ +(\S.*?)\s*$/.exec(lines[i]!)?.[1];
    if (!cmd || /^(#|\$)/.test(cmd)) continue;
    for (let j = i + 1; j < Math.min(lines.length, i + 30); j += 1) {
      const line = lines[j]!.trim();
      if (/^\s*\$ /.test(lines[j]!) || line.startsWith('```')) break;
      if (line && ERROR_LINE.test(line)) {
        const message = line.length > 200 ? line.slice(0, 200) : line;
        const symptom = { stdout_contains: message, stderr_contains: message };
        const words = cmd.split(/[ \t]+/);
        if (words.every((w) => SAFE_WORD.test(w))) return { spec: spec({ trigger: words.join(' '), symptom }), needsHuman: null };
        return {
          spec: spec({ trigger: HUMAN_TRIGGER, symptom }),
          needsHuman: `the command on report line ${i + 1} has characters outside the safe set (letters, digits, _ . / : = @ % + -) and was not copied`,
        };
      }
    }
  }
  return null;
}

const plain =
  (draft: (text: string) => ProbeSpec | null) =>
  (text: string): Drafted | null => {
    const s = draft(text);
    return s ? { spec: s, needsHuman: null } : null;
  };

const DRAFTERS: readonly [DraftKind, (text: string) => Drafted | null][] = [
  ['pytest', plain(draftPytest)],
  ['cargo', plain(draftCargo)],
  ['go', plain(draftGo)],
  ['junit', plain(draftJunit)],
  ['command', draftCommand],
];

/** A draft spec and what it was drafted from, or null when the report names nothing runnable. */
export function draftProbeWithKind(reportText: string): { kind: DraftKind; spec: ProbeSpec; needsHuman: string | null } | null {
  for (const [kind, draft] of DRAFTERS) {
    const d = draft(reportText);
    if (d) return { kind, ...d };
  }
  return null;
}

export function draftProbe(reportText: string): ProbeSpec | null {
  return draftProbeWithKind(reportText)?.spec ?? null;
}
