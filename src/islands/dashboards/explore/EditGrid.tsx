/**
 * The grid in edit mode: react-grid-layout moves widgets by their handle and resizes them by the corner, on the
 * dashboard's 24 columns. Loaded only when edit mode opens, so viewing a dashboard carries none of it.
 */
import { type ReactNode, useMemo } from 'react';
import ReactGridLayout, { type Layout, noCompactor, useContainerWidth } from 'react-grid-layout';
import 'react-grid-layout/css/styles.css';
import 'react-resizable/css/styles.css';
import { dashboardLimits } from '../../../../contract/constants/dashboards.ts';
import type { Widget } from '../../../../contract/dashboards.ts';
import { GRID_GAP, ROW_HEIGHT } from './WidgetCard.tsx';

interface Props {
  readonly widgets: readonly Widget[];
  readonly onLayout: (layout: readonly { i: string; x: number; y: number; w: number; h: number }[]) => void;
  readonly render: (widget: Widget) => ReactNode;
}

export default function EditGrid({ widgets, onLayout, render }: Props) {
  const { width, containerRef, mounted } = useContainerWidth();
  const layout = useMemo<Layout>(
    () => widgets.map((widget) => ({ i: widget.id, ...widget.gridPos, minW: 2, minH: 2 })),
    [widgets],
  );
  return (
    <div ref={containerRef} className="sg-dash__edit-grid">
      {mounted && (
        <ReactGridLayout
          width={width}
          layout={layout}
          gridConfig={{ cols: dashboardLimits.columns, rowHeight: ROW_HEIGHT, margin: [GRID_GAP, GRID_GAP] }}
          dragConfig={{ enabled: true, handle: '.sg-widget__handle' }}
          resizeConfig={{ enabled: true, handles: ['se'] }}
          compactor={noCompactor}
          // Only a finished drag or resize is a change: the grid's own layout passes (mount, new props) are not.
          onDragStop={(next) => onLayout(next)}
          onResizeStop={(next) => onLayout(next)}
        >
          {widgets.map((widget) => (
            <div key={widget.id} className="sg-dash__cell">
              {render(widget)}
            </div>
          ))}
        </ReactGridLayout>
      )}
    </div>
  );
}
