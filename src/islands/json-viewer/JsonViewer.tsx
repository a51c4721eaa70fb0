/** The JSON viewer island: an ARIA tree with a toggle and a copy button per node, lazy children and arrow-key navigation. */
import { type FocusEvent, type KeyboardEvent, useMemo, useState } from 'react';
import { JsonNode } from './JsonNode.tsx';
import { TreeContext, type TreeContextValue } from './tree-context.ts';
import './JsonViewer.css';

/** Props of the JSON viewer. */
export interface JsonViewerProps {
  /** The parsed JSON value to show. */
  readonly data: unknown;
  /** Accessible name of the tree; 'JSON' by default. */
  readonly label?: string | undefined;
  /** Levels open on first render: 0 shows the root collapsed, 1 (default) shows its children. */
  readonly expandDepth?: number | undefined;
  /** Children rendered at a time in a large object or array, with "Show more" for the rest; 100 by default. */
  readonly pageSize?: number | undefined;
  /** Extra class on the tree. */
  readonly className?: string | undefined;
}

const ITEM = '[role="treeitem"]';

function toggleOf(item: HTMLElement): HTMLButtonElement | null {
  return item.querySelector(':scope > .sg-json__toggle');
}

// A node's children live in the group it owns; its parent is the treeitem owning the group it sits in.
function firstChildOf(item: HTMLElement): HTMLElement | null {
  const group = document.getElementById(item.getAttribute('aria-owns') ?? '');
  return group?.querySelector<HTMLElement>(ITEM) ?? null;
}

function parentOf(item: HTMLElement): HTMLElement | null {
  const group = item.closest('.sg-json__group');
  const owner = group?.previousElementSibling;
  return owner instanceof HTMLElement && owner.matches(ITEM) ? owner : null;
}

/** Shows any JSON document as a tree; a 5 MB document renders only what is open. */
export function JsonViewer({ data, label = 'JSON', expandDepth = 1, pageSize = 100, className }: JsonViewerProps) {
  const [activePath, setActivePath] = useState('');
  const context = useMemo<TreeContextValue>(
    () => ({ activePath, expandDepth, pageSize: Math.max(1, pageSize) }),
    [activePath, expandDepth, pageSize],
  );

  // Whichever treeitem gets focus (by click, Tab or arrows) becomes the one in the tab order.
  const onFocus = (event: FocusEvent<HTMLDivElement>): void => {
    const item = (event.target as HTMLElement).closest<HTMLElement>(ITEM);
    if (item?.dataset.path !== undefined) setActivePath(item.dataset.path);
  };

  // The WAI-ARIA tree keys; rendered treeitems in document order are exactly the visible ones.
  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>): void => {
    const target = event.target as HTMLElement;
    const item = target.closest<HTMLElement>(ITEM);
    if (!item) return;
    const items = Array.from(event.currentTarget.querySelectorAll<HTMLElement>(ITEM));
    const index = items.indexOf(item);
    const expanded = item.getAttribute('aria-expanded');
    let next: HTMLElement | null | undefined;
    switch (event.key) {
      case 'ArrowDown':
        next = items[index + 1];
        break;
      case 'ArrowUp':
        next = items[index - 1];
        break;
      case 'Home':
        next = items[0];
        break;
      case 'End':
        next = items.at(-1);
        break;
      case 'ArrowRight':
        if (expanded === 'false') toggleOf(item)?.click();
        else if (expanded === 'true') next = firstChildOf(item);
        else return;
        break;
      case 'ArrowLeft':
        if (expanded === 'true') toggleOf(item)?.click();
        else next = parentOf(item);
        break;
      case 'Enter':
      case ' ':
        if (target !== item) return;
        toggleOf(item)?.click();
        break;
      default:
        return;
    }
    event.preventDefault();
    next?.focus();
  };

  return (
    <TreeContext.Provider value={context}>
      <div
        role="tree"
        aria-label={label}
        className={['sg-json', className].filter(Boolean).join(' ')}
        onFocus={onFocus}
        onKeyDown={onKeyDown}
      >
        <JsonNode name={null} value={data} path="" depth={0} position={1} siblings={1} />
      </div>
    </TreeContext.Provider>
  );
}

export default JsonViewer;
