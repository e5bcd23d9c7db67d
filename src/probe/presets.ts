/**
 * Test-command presets per language, detected from the files at the top of a tree. They are
 * proposals only: r2v prints them (in `r2v probe --case` and in drafts) and never runs a command
 * that is not written into the config (`repos[].test_command`) or a spec. Pure.
 */

export interface TestCommandProposal {
  /** The template, with `{tests}` where the test files go when the tool takes files. */
  readonly command: string;
  /** The file the proposal is based on. */
  readonly basis: string;
  /** Whether the template takes test files (a transplanted probe needs `{tests}`). */
  readonly takesFiles: boolean;
}

const PRESETS: readonly { files: readonly string[]; command: string; takesFiles: boolean }[] = [
  { files: ['pytest.ini', 'pyproject.toml', 'setup.cfg', 'tox.ini', 'setup.py'], command: 'python3 -m pytest -q {tests}', takesFiles: true },
  { files: ['vitest.config.ts', 'vitest.config.js', 'vitest.config.mts', 'vite.config.ts'], command: 'npx vitest run {tests}', takesFiles: true },
  { files: ['jest.config.js', 'jest.config.ts', 'jest.config.cjs', 'jest.config.mjs'], command: 'npx jest {tests}', takesFiles: true },
  { files: ['package.json'], command: 'npm test -- {tests}', takesFiles: true },
  { files: ['go.mod'], command: 'go test ./...', takesFiles: false },
  { files: ['Cargo.toml'], command: 'cargo test', takesFiles: false },
  { files: ['CMakeLists.txt'], command: 'ctest --test-dir build --output-on-failure', takesFiles: false },
  { files: ['Makefile', 'GNUmakefile'], command: 'make check', takesFiles: false },
];

/** The preset for a tree's top-level file names, or null when no known layout matches. */
export function proposeTestCommand(topLevelNames: readonly string[]): TestCommandProposal | null {
  const names = new Set(topLevelNames);
  for (const p of PRESETS) {
    const basis = p.files.find((f) => names.has(f));
    if (basis) return { command: p.command, basis, takesFiles: p.takesFiles };
  }
  return null;
}

/** One line describing a proposal, for command output and draft headers. */
export function describeProposal(p: TestCommandProposal | null): string {
  if (!p) return 'no test command detected from the layout; set repos[].test_command';
  const fit = p.takesFiles ? '' : ' (it runs every test; a transplanted probe needs a command with {tests})';
  return `proposed test command (from ${p.basis}, not run until written into repos[].test_command): ${p.command}${fit}`;
}
