// @vitest-environment node
import { readFileSync } from 'node:fs';
import { theme } from 'antd';
import { describe, expect, it } from 'vitest';
import { THEME_TOKENS } from './tokens';

const css = readFileSync(new URL('../styles/theme.css', import.meta.url), 'utf8');

/** antd's token → CSS variable name (antd's token2CSSVar), with our prefix. */
function variableName(key: string): string {
  return `--slg-${key
    .replace(/([A-Z]+)([A-Z][a-z0-9]+)/g, '$1-$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/([a-z])([0-9])/g, '$1-$2')
    .toLowerCase()}`;
}

const UNITLESS = /^(lineHeight|fontWeight)/;

function cssValue(key: string, value: unknown): string {
  if (typeof value === 'number') return UNITLESS.test(key) ? String(Number(value.toFixed(4))) : `${value}px`;
  return String(value).replace(/\s+/g, ' ').trim();
}

function declarations(selector: string): Map<string, string> {
  const start = css.indexOf(`${selector} {`);
  expect(start, `${selector} is missing from theme.css`).toBeGreaterThanOrEqual(0);
  const block = css.slice(start, css.indexOf('}', start));
  return new Map([...block.matchAll(/(--slg-[a-z0-9-]+):\s*([^;]+);/g)].map((match) => [match[1] ?? '', (match[2] ?? '').trim()]));
}

describe('styles/theme.css', () => {
  const light = declarations(':root');
  const dark = new Map([...light, ...declarations(":root[data-theme='dark']")]);

  it.each([
    ['light', light, theme.defaultAlgorithm],
    ['dark', dark, theme.darkAlgorithm],
  ] as const)('holds antd’s %s tokens for the theme’s seeds', (mode, declared, algorithm) => {
    const tokens = theme.getDesignToken({ algorithm, token: THEME_TOKENS[mode] }) as unknown as Record<string, unknown>;
    const byName = new Map(Object.entries(tokens).map(([key, value]) => [variableName(key), cssValue(key, value)]));
    expect(declared.size).toBeGreaterThan(50);
    for (const [name, value] of declared) {
      expect(byName.has(name), `${name} is not an antd token`).toBe(true);
      expect(value, name).toBe(byName.get(name));
    }
  });
});
