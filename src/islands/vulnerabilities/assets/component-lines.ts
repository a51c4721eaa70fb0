/**
 * The typed inventory of the asset form: one component a line, a package URL (`pkg:npm/lodash@4.17.21`) or
 * `ecosystem name version` (`PyPI django 4.2.7`); blank lines and `#` comments are skipped. The API's messages for
 * `components.N…` are put back on the line they came from.
 */
import type { ComponentInput } from '../../../../contract/assets.ts';
import { ecosystems } from '../../../../contract/constants/vulns.ts';

export const LINE_FORMAT = 'a package URL (pkg:npm/lodash@4.17.21) or “ecosystem name version” (PyPI django 4.2.7)';

/** The components of the text, with each one's line number (1-based), or the first line that is neither form. */
export function readLines(text: string): { components: ComponentInput[]; lines: number[] } | { problem: string } {
  const components: ComponentInput[] = [];
  const lines: number[] = [];
  for (const [index, raw] of text.split(/\r?\n/).entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    if (line.toLowerCase().startsWith('pkg:')) {
      components.push({ purl: line });
    } else {
      const parts = line.split(/\s+/);
      if (parts.length !== 3) return { problem: `Line ${index + 1}: write ${LINE_FORMAT}.` };
      const [ecosystem = '', name = '', version = ''] = parts;
      const known = ecosystems.find((e) => e.toLowerCase() === ecosystem.toLowerCase());
      components.push({ ecosystem: known ?? ecosystem, name, version });
    }
    lines.push(index + 1);
  }
  return { components, lines };
}

/** The inventory as lines again (for an edit that starts from the current one). */
export function writeLines(
  components: readonly { purl: string | null; ecosystem: string; name: string; version: string }[],
): string {
  return components.map((c) => c.purl ?? `${c.ecosystem} ${c.name} ${c.version}`).join('\n');
}

/** API field messages with `components.N.key` turned into one `components` message naming the line. */
export function linesOfFields(
  fields: Readonly<Record<string, string>>,
  lines: readonly number[],
): Record<string, string> {
  const out: Record<string, string> = {};
  const onLines: string[] = [];
  for (const [field, message] of Object.entries(fields)) {
    const match = /^components\.(\d+)(?:\.|$)/.exec(field);
    if (match) onLines.push(`Line ${lines[Number(match[1])] ?? Number(match[1]) + 1}: ${message}`);
    else if (/^tags\.\d+$/.test(field)) out.tags ??= message;
    else out[field] = message;
  }
  if (onLines.length > 0) out.components = onLines.join(' ');
  return out;
}
