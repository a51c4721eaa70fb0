/** One widget on the grid: its title, chart type switch, edit controls in edit mode, and its own loading, empty and error states. */
import { type KeyboardEvent, type ReactNode, useId } from 'react';
import { type WidgetType, widgetTypeLabels } from '../../../../contract/constants/dashboards.ts';
import { typesFor } from '../../../../contract/dashboard-rules.ts';
import type { Widget, WidgetQueryBody } from '../../../../contract/dashboards.ts';
import { errorMessage } from '../../../lib/api.ts';
import { RetryButton } from '../../shared/RetryButton.tsx';
import { useWidgetResult } from './use-widget-result.ts';
import { WidgetBoundary } from './WidgetBoundary.tsx';
import { isEmptyResult, WidgetView } from './WidgetView.tsx';

/** Rows of the grid are this many pixels tall; a widget's chart takes its rows minus its header. */
export const ROW_HEIGHT = 40;
export const GRID_GAP = 12;
const HEADER = 56;

interface Props {
  readonly spaceId: string;
  readonly widget: Widget;
  readonly request: WidgetQueryBody;
  readonly editing: boolean;
  readonly onType: (type: WidgetType) => void;
  readonly onZoom: (from: number, to: number) => void;
  readonly onEdit?: () => void;
  readonly onDuplicate?: () => void;
  readonly onRemove?: () => void;
  /** Arrow keys on the handle: move by a column or row, or resize with Shift. */
  readonly onNudge?: (move: { dx: number; dy: number; dw: number; dh: number }) => void;
}

const ARROWS: Record<string, [number, number]> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

export function WidgetCard({
  spaceId,
  widget,
  request,
  editing,
  onType,
  onZoom,
  onEdit,
  onDuplicate,
  onRemove,
  onNudge,
}: Props) {
  const { state, retry } = useWidgetResult(spaceId, request);
  const titleId = useId();
  const typeId = useId();
  const hintId = useId();
  const height = Math.max(80, widget.gridPos.h * (ROW_HEIGHT + GRID_GAP) - GRID_GAP - HEADER);
  const types = typesFor(widget.query.groupBy);

  const nudge = (event: KeyboardEvent<HTMLButtonElement>): void => {
    const arrow = ARROWS[event.key];
    if (!arrow || !onNudge) return;
    event.preventDefault();
    const [x, y] = arrow;
    onNudge(event.shiftKey ? { dx: 0, dy: 0, dw: x, dh: y } : { dx: x, dy: y, dw: 0, dh: 0 });
  };

  let body: ReactNode;
  if (state.status === 'loading')
    body = (
      <p className="sg-widget__state" role="status">
        Loading…
      </p>
    );
  else if (state.status === 'error')
    body = (
      <div className="sg-widget__state sg-widget__state--error" role="alert">
        <p>{errorMessage(state.error)}</p>
        <RetryButton onRetry={retry} />
      </div>
    );
  else if (widget.type !== 'stat' && isEmptyResult(state.result))
    body = <p className="sg-widget__state">No events match in this time range.</p>;
  else
    body = (
      <WidgetBoundary resetKey={`${widget.type}:${state.result.from}:${state.result.to}:${state.query}`}>
        <WidgetView widget={widget} result={state.result} height={height} onZoom={onZoom} />
      </WidgetBoundary>
    );

  return (
    <section
      className={`sg-widget${editing ? ' sg-widget--editing' : ''}`}
      aria-labelledby={titleId}
      aria-busy={state.status === 'loading' || (state.status === 'ready' && state.refreshing)}
      data-widget={widget.id}
    >
      <header className="sg-widget__head">
        {editing && (
          <button
            type="button"
            className="sg-widget__handle"
            aria-label={`Move or resize ${widget.title}`}
            aria-describedby={hintId}
            onKeyDown={nudge}
          >
            <span aria-hidden="true">⠿</span>
          </button>
        )}
        <h2 id={titleId} className="sg-widget__title" title={widget.title}>
          {widget.title}
        </h2>
        {types.length > 1 && (
          <span className="sg-widget__type">
            <label htmlFor={typeId} className="visually-hidden">
              Chart type of {widget.title}
            </label>
            <select id={typeId} value={widget.type} onChange={(event) => onType(event.target.value as WidgetType)}>
              {types.map((type) => (
                <option key={type} value={type}>
                  {widgetTypeLabels[type]}
                </option>
              ))}
            </select>
          </span>
        )}
        {editing && (
          <span className="sg-widget__actions">
            <button type="button" className="button secondary" onClick={onEdit} aria-label={`Edit ${widget.title}`}>
              Edit
            </button>
            <button
              type="button"
              className="button secondary"
              onClick={onDuplicate}
              aria-label={`Duplicate ${widget.title}`}
            >
              Duplicate
            </button>
            <button
              type="button"
              className="button secondary danger"
              onClick={onRemove}
              aria-label={`Remove ${widget.title}`}
            >
              Remove
            </button>
          </span>
        )}
      </header>
      {editing && (
        <p id={hintId} className="visually-hidden">
          Arrow keys move the widget by one column or row; Shift with the arrow keys makes it wider, narrower, taller or
          shorter. Column {widget.gridPos.x + 1}, row {widget.gridPos.y + 1}, {widget.gridPos.w} columns wide,{' '}
          {widget.gridPos.h} rows tall.
        </p>
      )}
      <div
        className={`sg-widget__body${widget.type === 'stat' && state.status === 'ready' ? ' sg-widget__body--stat' : ''}`}
      >
        {body}
      </div>
    </section>
  );
}
