/**
 * Whether a widget's filter reads, with its dashboard's variables: apart from the other dashboard rules (no zod either)
 * because it needs the query parser, which the explore page loads only with edit mode's widget form.
 */
import { dashboardFields } from './constants/dashboards.ts';
import { expandVariables, type VariableLike, variableReferences } from './dashboard-rules.ts';
import { parseQuery } from './query/parse.ts';

/** Why a filter does not read with the dashboard's variables, or null when it does. */
export function filterProblem(filter: string, variables: readonly VariableLike[]): string | null {
  for (const ref of variableReferences(filter)) {
    if (!variables.some((variable) => variable.name === ref.name)) {
      const known = variables.length > 0 ? variables.map((variable) => `$${variable.name}`).join(', ') : 'none';
      return `$${ref.name} is not a variable of this dashboard (variables: ${known}).`;
    }
    if (filter[ref.start - 1] === ':')
      return `Write $${ref.name} on its own: it stands for the whole condition (as ${dashboardFields[variables.find((v) => v.name === ref.name)?.field ?? 'country'].term}:value).`;
  }
  // Every variable at its widest (every event) and at one value: both must read.
  const parsed = parseQuery(expandVariables(filter, variables, {}));
  if (!parsed.ok) return `${parsed.error.message} (at character ${parsed.error.position}).`;
  return null;
}
