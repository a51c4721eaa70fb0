/** Dashboards as JSON files: export writes the model, import reads one back and names every problem by its path. */
import { dashboardLimits } from '../../../contract/constants/dashboards.ts';
import type { DashboardModel } from '../../../contract/dashboards.ts';

/** The file name an export gets: the title made safe, `.dashboard.json`. */
export function exportFileName(title: string): string {
  const base = title
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  return `${base || 'dashboard'}.dashboard.json`;
}

/** The exported text: the model alone (no id, version or authors), indented. */
export function exportText(model: DashboardModel): string {
  return `${JSON.stringify(model, null, 2)}\n`;
}

/** Saves the model as a file through the browser's download. */
export function downloadDashboard(model: DashboardModel): void {
  const url = URL.createObjectURL(new Blob([exportText(model)], { type: 'application/json' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = exportFileName(model.title);
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1_000);
}

export type ReadResult = { ok: true; json: unknown } | { ok: false; problems: string[] };

/**
 * Reads a file chosen for import as JSON; the model itself is checked by the API when it is created, whose answer
 * names every problem by its path (so one schema decides, and the browser carries none of it).
 */
export async function readDashboardFile(file: File): Promise<ReadResult> {
  if (file.size > dashboardLimits.importBytes)
    return {
      ok: false,
      problems: [`The file is ${file.size.toLocaleString('en')} bytes; a dashboard file has at most 1 MB.`],
    };
  try {
    return { ok: true, json: JSON.parse(await file.text()) };
  } catch (error) {
    return { ok: false, problems: [`The file is not JSON: ${(error as Error).message}`] };
  }
}

/** The problems of a refused import, each with the path of its field: `widgets.3.gridPos.w: …`. */
export function refusalLines(fields: Readonly<Record<string, string>>, message: string): string[] {
  const named = Object.entries(fields).map(([path, text]) => (path ? `${path}: ${text}` : text));
  return named.length > 0 ? named : [message];
}
