/** The conflict view's lists, loaded with it. */
import type { DashboardModel } from '../../../contract/dashboards.ts';

/** What changed between two versions of a dashboard, in words, for the conflict view. */
export function describeChanges(base: DashboardModel, other: DashboardModel): string[] {
  const lines: string[] = [];
  if (base.title !== other.title) lines.push(`Title: "${base.title}" → "${other.title}"`);
  if (JSON.stringify(base.timeRange) !== JSON.stringify(other.timeRange))
    lines.push(
      `Time range: ${base.timeRange.from} to ${base.timeRange.to} → ${other.timeRange.from} to ${other.timeRange.to}`,
    );
  if (base.refreshSeconds !== other.refreshSeconds)
    lines.push(`Auto refresh: ${base.refreshSeconds} s → ${other.refreshSeconds} s`);
  if (JSON.stringify(base.variables) !== JSON.stringify(other.variables)) lines.push('Variables changed');
  const before = new Map(base.widgets.map((widget) => [widget.id, widget]));
  const after = new Map(other.widgets.map((widget) => [widget.id, widget]));
  for (const [id, widget] of after) {
    const old = before.get(id);
    if (!old) lines.push(`Added widget "${widget.title}"`);
    else if (JSON.stringify(old) !== JSON.stringify(widget)) {
      const parts: string[] = [];
      if (old.title !== widget.title) parts.push('title');
      if (old.type !== widget.type) parts.push(`type ${old.type} → ${widget.type}`);
      if (JSON.stringify(old.query) !== JSON.stringify(widget.query)) parts.push('query');
      if (JSON.stringify(old.gridPos) !== JSON.stringify(widget.gridPos)) parts.push('position or size');
      lines.push(`Changed widget "${widget.title}": ${parts.join(', ')}`);
    }
  }
  for (const [id, widget] of before) if (!after.has(id)) lines.push(`Removed widget "${widget.title}"`);
  return lines;
}
