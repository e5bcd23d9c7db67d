import { describe, expect, it } from 'vitest';
import { UsageError } from '../../../src/errors.js';
import { selectStages } from '../../../src/run/select.js';
import type { Stage } from '../../../src/stages/types.js';

const stage = (name: string): Stage<unknown> => ({ name, version: 1, needs: [], description: name, plan: () => [], process: async () => ({ status: 'done', save: () => {} }) });
const REGISTRY = ['discover', 'attribute', 'resolve', 'validate', 'export'].map(stage);
const names = (sel: Parameters<typeof selectStages>[1]) => selectStages(REGISTRY, sel).map((s) => s.name);

describe('selectStages (run --stage / --from / --until)', () => {
  it('selects every stage, one stage, or an inclusive range in registry order', () => {
    expect(names({})).toEqual(['discover', 'attribute', 'resolve', 'validate', 'export']);
    expect(names({ stage: 'resolve' })).toEqual(['resolve']);
    expect(names({ from: 'attribute' })).toEqual(['attribute', 'resolve', 'validate', 'export']);
    expect(names({ until: 'attribute' })).toEqual(['discover', 'attribute']);
    expect(names({ from: 'resolve', until: 'validate' })).toEqual(['resolve', 'validate']);
    expect(names({ from: 'resolve', until: 'resolve' })).toEqual(['resolve']);
  });

  it('refuses unknown names, --stage with a range, and a range that runs backwards', () => {
    expect(() => names({ stage: 'nope' })).toThrow(UsageError);
    expect(() => names({ from: 'nope' })).toThrow(/^--from nope: unknown stage \(stages: discover, attribute, resolve, validate, export\)$/);
    expect(() => names({ until: 'nope' })).toThrow(/^--until nope: unknown stage/);
    expect(() => names({ stage: 'resolve', until: 'export' })).toThrow('--stage cannot be combined with --from or --until');
    expect(() => names({ from: 'validate', until: 'attribute' })).toThrow('--from validate comes after --until attribute');
  });
});
