/** What every node of one JSON tree shares: the roving focus, the initial depth and the chunk size. */
import { createContext } from 'react';

/** Shared settings and the roving tabindex of one tree. */
export interface TreeContextValue {
  /** Path of the one treeitem in the tab order. */
  readonly activePath: string;
  /** Levels expanded when a node first renders. */
  readonly expandDepth: number;
  /** Children rendered per chunk of a large node. */
  readonly pageSize: number;
}

/** Context of the enclosing JsonViewer. */
export const TreeContext = createContext<TreeContextValue>({ activePath: '', expandDepth: 1, pageSize: 100 });
