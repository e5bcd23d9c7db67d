/** The recorded facts of probe commands, shared by the command probe and the transplanted-test probe. */
import type { RunClass } from './classify.js';
import type { ExecResult } from './exec.js';

export type ProbeState = 'parent' | 'gold';

/** The recorded facts of one command execution. */
export interface ExecRecord {
  readonly command: string;
  readonly exitCode: number | null;
  readonly signal: string | null;
  readonly timedOut: boolean;
  readonly durationMs: number;
  readonly stdoutTail: string;
  readonly stderrTail: string;
  readonly stdoutDigest: string;
  readonly stderrDigest: string;
  readonly networkIsolated: boolean;
}

/** One setup step of a state. */
export interface SetupRecord extends ExecRecord {
  readonly step: number;
  readonly ok: boolean;
  /** Set when the step was not run because its result came from the setup cache (the key's digest). */
  readonly cachedKey?: string;
}

/** One trigger run. When setup failed the trigger is not run: `executed` is false and the exec fields are empty. */
export interface RunRecord extends ExecRecord {
  readonly state: ProbeState;
  readonly repeat: number;
  readonly executed: boolean;
  readonly classification: RunClass;
  readonly why: string;
}

export function execRecord(command: string, r: ExecResult): ExecRecord {
  return {
    command,
    exitCode: r.exitCode,
    signal: r.signal,
    timedOut: r.timedOut,
    durationMs: r.durationMs,
    stdoutTail: r.stdoutTail,
    stderrTail: r.stderrTail,
    stdoutDigest: r.stdoutDigest,
    stderrDigest: r.stderrDigest,
    networkIsolated: r.networkIsolated,
  };
}

/** A trigger run that did not happen because setup failed. */
export function skippedRun(state: ProbeState, repeat: number, command: string, why: string): RunRecord {
  return {
    state, repeat, executed: false, classification: 'setup-failed', why,
    command, exitCode: null, signal: null, timedOut: false, durationMs: 0,
    stdoutTail: '', stderrTail: '', stdoutDigest: '', stderrDigest: '', networkIsolated: false,
  };
}
