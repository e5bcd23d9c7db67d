/** Realistic workflow files shared by the Forward tests (texts as a project would write them). */
export const LINT = `name: lint
on: pull_request
jobs:
  lint:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: make lint
`;

export const DOCS = `name: docs
on:
  pull_request:
    paths:
      - 'docs/**'
      - '*.md'
jobs:
  build:
    runs-on: ubuntu-latest
    steps:
      - run: make docs
`;

export const TEST_PY = `name: python tests
on:
  pull_request:
    types: [opened, synchronize]
    paths: ['**.py', 'requirements*.txt']
jobs:
  test:
    uses: ./.github/workflows/reusable-test.yml
    with:
      lang: python
`;

export const TEST_TS = `name: ts tests
on:
  pull_request:
    branches: [main, 'release/**']
    paths:
      - 'src/**/*.ts'
      - 'package.json'
      - '!src/**/*.d.ts'
  push:
    branches: [main]
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - run: npm test
`;

/** A workflow scoped to one service directory, on pull_request_target. */
export const API = `name: api
on:
  pull_request_target:
    paths: ['services/api/**']
jobs:
  deploy-preview:
    runs-on: ubuntu-latest
    steps:
      - run: ./deploy-preview.sh
`;

export const REUSABLE = `name: reusable test
on:
  workflow_call:
    inputs:
      lang:
        type: string
        required: true
jobs:
  run:
    runs-on: ubuntu-latest
    steps:
      - run: echo \${{ inputs.lang }}
`;

export const RELEASE = `name: release
on:
  push:
    tags: ['v*']
jobs:
  publish:
    runs-on: ubuntu-latest
    steps:
      - run: make publish
`;

/** Broken on purpose: duplicate key. */
export const BROKEN = `name: broken
on: pull_request
on: push
jobs:
  x:
    runs-on: ubuntu-latest
    steps:
      - run: true
`;

export const WORKFLOWS: Record<string, string> = {
  '.github/workflows/lint.yml': LINT,
  '.github/workflows/docs.yml': DOCS,
  '.github/workflows/test-python.yml': TEST_PY,
  '.github/workflows/test-ts.yaml': TEST_TS,
  '.github/workflows/api.yml': API,
  '.github/workflows/reusable-test.yml': REUSABLE,
  '.github/workflows/release.yml': RELEASE,
};

export const workflowFiles = (map: Record<string, string> = WORKFLOWS): { path: string; text: string }[] =>
  Object.entries(map).map(([path, text]) => ({ path, text }));
