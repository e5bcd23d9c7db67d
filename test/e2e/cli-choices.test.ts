/** `run --stage` and `retry --kind` list their values in --help and refuse others (exit 2). */
import { describe, expect, it } from 'vitest';
import { runCliCaptured } from '../support/cli.js';
import { tempDir } from '../support/make-repo.js';

describe('stage and error-kind choices', () => {
  it('--help lists the stages and error kinds; other values are usage errors', async () => {
    const dir = await tempDir();
    const runHelp = await runCliCaptured(['run', '--help'], dir);
    expect(runHelp.stdout.replace(/\s+/g, ' ')).toMatch(/--stage <name> run only this stage \(choices: "discover", "attribute",/);
    const retryHelp = await runCliCaptured(['retry', '--help'], dir);
    expect(retryHelp.stdout.replace(/\s+/g, ' ')).toMatch(/--kind <kind> only failures of this error kind \(choices: "config", "usage", "auth", "rate-limit",.*"transient"/);
    const badKind = await runCliCaptured(['retry', '--stage', 'discover', '--kind', 'flaky'], dir);
    expect(badKind.code).toBe(2);
    expect(badKind.stderr).toMatch(/option '--kind <kind>' argument 'flaky' is invalid\. Allowed choices are config, usage/);
    const badStage = await runCliCaptured(['retry', '--stage', 'nope'], dir);
    expect(badStage.code).toBe(2);
    expect((await runCliCaptured(['run', '--until', 'nope'], dir)).code).toBe(2);
  });
});
