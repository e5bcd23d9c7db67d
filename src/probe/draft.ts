/**
 * Draft probes: where a report names a failing test or shows a command with its error, propose
 * a spec for a human to finish. Drafts are marked `draft: true`, which never verifies a case.
 * Only characters from a conservative set are taken from the report, and every value that
 * reaches the trigger is single-quoted. A shown command with anything outside that set (`;`, `|`,
 * `$`, quotes, redirections, …) is never copied: its draft gets a placeholder trigger that cannot
 * verify anything and a note asking for a human.
 */
import { SHELL_SAFE_WORD, shellQuote } from '../util/shell-quote.js';
import { ProbeSpec } from './spec.js';

export type DraftKind = 'pytest' | 'cargo' | 'go' | 'junit' | 'command' | 'script';

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

/** An exception class name such as TypeError or ZeroDivisionError (ERROR_LINE wants whole words). */
const ERROR_NAME = /[A-Za-z](?:Error|Exception)\b/;

/** A drafted spec, and why it needs a human beyond the usual review (null when it does not). */
interface Drafted {
  readonly spec: ProbeSpec;
  readonly needsHuman: string | null;
  /** A reproduction script from the report, to be saved at the path the trigger reads it from. */
  readonly script?: { readonly path: string; readonly body: string };
}

/** Interpreters of reproduction scripts by fence language; each reads the script from stdin, resolving imports from the checkout. */
const SCRIPT_LANGS: Readonly<Record<string, { ext: string; run: string }>> = {
  js: { ext: 'js', run: 'node -' }, javascript: { ext: 'js', run: 'node -' }, node: { ext: 'js', run: 'node -' }, cjs: { ext: 'js', run: 'node -' },
  py: { ext: 'py', run: 'python3 -' }, python: { ext: 'py', run: 'python3 -' }, python3: { ext: 'py', run: 'python3 -' },
  sh: { ext: 'sh', run: 'sh -s' }, bash: { ext: 'sh', run: 'sh -s' }, shell: { ext: 'sh', run: 'sh -s' },
};

/**
 * A reproduction script: a fenced code block in a script language, followed by quoted error text
 * (a line of a later fenced block or a back-quoted span that reads as an error). The script is
 * never put into the shell: it is saved beside the draft (`scriptPath(ext)`) and the trigger
 * feeds it to the interpreter on stdin; the error text becomes the `stderr_contains` symptom.
 */
function draftScript(text: string, scriptPath: (ext: string) => string): Drafted | null {
  const fence = /^[ \t]{0,3}(`{3,}|~{3,})[ \t]*([\w+-]*)[^\n]*\n([\s\S]*?)^[ \t]{0,3}\1[ \t]*$/gm;
  const blocks = [...text.matchAll(fence)].map((m) => ({ lang: m[2]!.toLowerCase(), body: m[3]!, end: m.index! + m[0].length }));
  for (const b of blocks) {
    const lang = SCRIPT_LANGS[b.lang];
    if (!lang || b.body.trim() === '') continue;
    const after = text.slice(b.end);
    const quoted = [
      ...[...after.matchAll(fence)].flatMap((m) => m[3]!.split('\n')),
      ...[...after.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!),
    ];
    const error = quoted.map((l) => l.trim()).find((l) => l !== '' && (ERROR_LINE.test(l) || ERROR_NAME.test(l)));
    if (!error) continue;
    const path = scriptPath(lang.ext);
    const message = error.length > 200 ? error.slice(0, 200) : error;
    const symptom = { stderr_contains: message };
    if (!SHELL_SAFE_WORD.test(path)) {
      return {
        spec: spec({ trigger: HUMAN_TRIGGER, symptom }),
        needsHuman: `the reproduction script was saved to ${JSON.stringify(path)}, a path with characters outside the safe set; write the trigger by hand`,
        script: { path, body: b.body },
      };
    }
    return { spec: spec({ trigger: `${lang.run} < ${path}`, symptom }), needsHuman: null, script: { path, body: b.body } };
  }
  return null;
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
        if (words.every((w) => SHELL_SAFE_WORD.test(w))) return { spec: spec({ trigger: words.join(' '), symptom }), needsHuman: null };
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

const DRAFTERS: readonly [DraftKind, (text: string, scriptPath: (ext: string) => string) => Drafted | null][] = [
  ['pytest', plain(draftPytest)],
  ['cargo', plain(draftCargo)],
  ['go', plain(draftGo)],
  ['junit', plain(draftJunit)],
  ['command', draftCommand],
  ['script', draftScript],
];

/**
 * A draft spec and what it was drafted from, or null when the report names nothing runnable.
 * `scriptPath(ext)` is where a reproduction script would be saved (the caller writes `script`).
 */
export function draftProbeWithKind(
  reportText: string,
  scriptPath: (ext: string) => string = (ext) => `repro.${ext}`,
): { kind: DraftKind; spec: ProbeSpec; needsHuman: string | null; script?: { path: string; body: string } } | null {
  for (const [kind, draft] of DRAFTERS) {
    const d = draft(reportText, scriptPath);
    if (d) return { kind, ...d };
  }
  return null;
}

export function draftProbe(reportText: string): ProbeSpec | null {
  return draftProbeWithKind(reportText)?.spec ?? null;
}
