/** One node of the JSON tree: its treeitem row (toggle, key, value or preview, copy) and, only while expanded, its children. */
import { memo, useContext, useEffect, useId, useMemo, useRef, useState } from 'react';
import {
  childCount,
  childPath,
  childSlice,
  formatScalar,
  isContainer,
  kindOf,
  nodeJson,
  previewText,
  sizeText,
} from './json-preview.ts';
import { TreeContext } from './tree-context.ts';

/** How long the copy confirmation stays (the seed's constant). */
export const COPIED_MS = 2000;

/** Left indent added per level (the seed's constant). */
export const INDENT_PX = 10;

interface JsonNodeProps {
  /** Key or index in the parent; null for the root. */
  readonly name: string | null;
  readonly value: unknown;
  readonly path: string;
  readonly depth: number;
  readonly position: number;
  readonly siblings: number;
}

type CopyState = 'idle' | 'copied' | 'failed';

function useCopy(value: unknown): [CopyState, () => void] {
  const [state, setState] = useState<CopyState>('idle');
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const copy = (): void => {
    const show = (next: CopyState): void => {
      clearTimeout(timer.current);
      setState(next);
      timer.current = setTimeout(() => setState('idle'), COPIED_MS);
    };
    const clipboard = typeof navigator === 'undefined' ? undefined : navigator.clipboard;
    if (!clipboard) {
      show('failed');
      return;
    }
    clipboard.writeText(nodeJson(value)).then(
      () => show('copied'),
      () => show('failed'),
    );
  };
  return [state, copy];
}

/** A tree node; memoised so opening one node does not re-render its siblings. */
export const JsonNode = memo(function JsonNode({ name, value, path, depth, position, siblings }: JsonNodeProps) {
  const { activePath, expandDepth, pageSize } = useContext(TreeContext);
  const container = isContainer(value) ? value : null;
  const [expanded, setExpanded] = useState(() => container !== null && depth < expandDepth);
  const [shown, setShown] = useState(pageSize);
  const [copyState, copy] = useCopy(value);
  const labelId = useId();
  const statusId = useId();
  const groupId = useId();
  const kind = kindOf(value);
  const total = container ? childCount(container) : 0;
  const children = useMemo(
    () => (container && expanded ? childSlice(container, 0, shown) : []),
    [container, expanded, shown],
  );
  const active = activePath === path;
  const title = name ?? 'root';

  // The group is a sibling owned by the treeitem (aria-owns), so an item's own text is only its row.
  return (
    <div className="sg-json__node">
      <div
        role="treeitem"
        aria-expanded={container ? expanded : undefined}
        aria-owns={container && expanded ? groupId : undefined}
        aria-level={depth + 1}
        aria-posinset={position}
        aria-setsize={siblings}
        aria-labelledby={`${labelId} ${statusId}`}
        tabIndex={active ? 0 : -1}
        data-path={path}
        className="sg-json__item"
        style={{ paddingLeft: `${depth * INDENT_PX}px` }}
      >
        {container ? (
          // Pointer users click it; keyboard and screen-reader users open nodes with the arrow keys and aria-expanded.
          <button
            type="button"
            tabIndex={-1}
            aria-hidden="true"
            className="sg-json__toggle"
            title={expanded ? 'Collapse' : 'Expand'}
            onClick={() => setExpanded((open) => !open)}
          >
            {expanded ? '▾' : '▸'}
          </button>
        ) : (
          <span className="sg-json__spacer" />
        )}
        <span id={labelId} className="sg-json__label">
          {name !== null ? (
            <>
              <span className="sg-json__key">{name}</span>
              <span className="sg-json__colon">: </span>
            </>
          ) : null}
          {container ? (
            <>
              {expanded ? null : <span className="sg-json__preview">{previewText(container)}</span>}
              <span className="sg-json__size">{` ${sizeText(container)}`}</span>
            </>
          ) : (
            <span className={`sg-json__${kind}`}>{formatScalar(value)}</span>
          )}
        </span>
        <button
          type="button"
          tabIndex={active ? 0 : -1}
          className="sg-json__copy"
          aria-label={`Copy ${title} as JSON`}
          title="Copy as JSON"
          onClick={copy}
        >
          <svg aria-hidden="true" focusable="false" viewBox="0 0 16 16" width="12" height="12">
            <rect x="5" y="5" width="9" height="9" rx="1.5" fill="none" stroke="currentColor" strokeWidth="1.5" />
            <path
              d="M11 3.5V3a1 1 0 0 0-1-1H3a1 1 0 0 0-1 1v7a1 1 0 0 0 1 1h.5"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.5"
            />
          </svg>
        </button>
        <span id={statusId} className="sg-json__copied" aria-live="polite">
          {copyState === 'copied' ? 'Copied!' : copyState === 'failed' ? 'Copy failed' : null}
        </span>
      </div>
      {container && expanded ? (
        // biome-ignore lint/a11y/useSemanticElements: a tree's nested items are a group by the ARIA tree pattern, not a fieldset.
        <div role="group" id={groupId} className="sg-json__group">
          {children.map(([key, child], index) => (
            <JsonNode
              key={key}
              name={key}
              value={child}
              path={childPath(path, key)}
              depth={depth + 1}
              position={index + 1}
              siblings={total}
            />
          ))}
          {shown < total ? (
            <div className="sg-json__more" style={{ paddingLeft: `${(depth + 1) * INDENT_PX}px` }}>
              <button type="button" onClick={() => setShown((count) => count + pageSize)}>
                Show {Math.min(pageSize, total - shown)} more ({total - shown} not shown)
              </button>
            </div>
          ) : null}
        </div>
      ) : null}
    </div>
  );
});
