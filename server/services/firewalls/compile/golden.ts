import { FirewallSettings } from '../../../../contract/firewall-settings.ts';
import { defaultFirewallSettings } from '../../../../contract/firewalls.ts';
import type { CrsCatalog } from '../engine/crs-catalog.ts';
import { type CompiledFirewall, compileFirewall } from './compile.ts';

/** One `cases/<name>.case` file: its input, and the expected output after a line of dashes. */
export type GoldenCase = { input: string; expected: string };

/** The input half of a case: the settings (merged over the defaults a new firewall gets) and the compile context. */
type CaseInput = { firewallId?: string; now?: string; settings: Record<string, unknown> };

const separator = /^-{3,}$/m;

/** Splits a case file at its first line of dashes. */
export function parseCase(text: string): GoldenCase {
  const match = separator.exec(text);
  if (!match) throw new Error('A case holds its input, a line of dashes, then the expected output.');
  return { input: text.slice(0, match.index), expected: text.slice(match.index + match[0].length + 1) };
}

/** Writes a case back with a new expected output (UPDATE_GOLDEN=1). */
export function formatCase(input: string, output: string): string {
  return `${input.trimEnd()}\n${'-'.repeat(40)}\n${output}`;
}

/** All files of a compilation as one text, a `==> name <==` header before each (like `head` of several files). */
export function renderFiles(compiled: CompiledFirewall): string {
  return Object.entries(compiled.files)
    .map(([name, text]) => `==> ${name} <==\n${text}${text.endsWith('\n') ? '' : '\n'}`)
    .join('\n');
}

/** Compiles a case's input the way the API does: settings validated (and normalised) by the contract first. */
export function compileCase(input: string, catalog: CrsCatalog): CompiledFirewall {
  const parsed = JSON.parse(input) as CaseInput;
  const settings = FirewallSettings.parse({ ...defaultFirewallSettings, ...parsed.settings });
  return compileFirewall({
    firewallId: parsed.firewallId ?? '00000000-0000-4000-8000-000000000001',
    settings,
    catalog,
    now: new Date(parsed.now ?? '2026-01-01T00:00:00Z'),
  });
}
