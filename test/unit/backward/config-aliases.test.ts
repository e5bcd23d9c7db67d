import { describe, expect, it } from 'vitest';
import { parseConfigText, repoConfig } from '../../../src/config.js';
import { ConfigError } from '../../../src/errors.js';

describe('repos[].aliases', () => {
  it('reads former names of a repository', () => {
    const config = parseConfigText('repos:\n  - name: neworg/widget\n    aliases: [oldorg/widget, oldorg/widget-legacy]\n', 'r2v.config.yaml');
    expect(repoConfig(config, 'neworg/widget')?.aliases).toEqual(['oldorg/widget', 'oldorg/widget-legacy']);
  });

  it('refuses an alias that is not owner/name, naming the field', () => {
    expect(() => parseConfigText('repos:\n  - name: neworg/widget\n    aliases: [widget]\n', 'r2v.config.yaml')).toThrow(ConfigError);
    expect(() => parseConfigText('repos:\n  - name: neworg/widget\n    aliases: [widget]\n', 'r2v.config.yaml')).toThrow(/aliases/);
  });
});
