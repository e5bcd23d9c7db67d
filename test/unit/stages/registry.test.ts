import { describe, expect, it } from 'vitest';
import { stages } from '../../../src/stages/index.js';

describe('stage registry', () => {
  it('has unique names, positive versions, and needs that point backwards', () => {
    const names = stages.map((s) => s.name);
    expect(new Set(names).size).toBe(names.length);
    stages.forEach((stage, i) => {
      expect(stage.version).toBeGreaterThan(0);
      expect(stage.name).toMatch(/^[a-z][a-z-]*$/);
      for (const need of stage.needs) {
        const at = names.indexOf(need);
        expect(at, `${stage.name} needs ${need}`).toBeGreaterThanOrEqual(0);
        expect(at, `${stage.name} needs ${need}, listed after it`).toBeLessThan(i);
      }
    });
  });
});
