/**
 * What the planner does with a query, for tests that keep an index in use: EXPLAIN's JSON plan walked into the
 * node types and the indexes read, each partition's index named by the partitioned table's index it belongs to.
 */
import { type SQL, sql } from 'drizzle-orm';
import { type Executor, rowsOf } from '../db/database.ts';

export type Plan = {
  /** Every node type in the plan ("Index Scan", "Seq Scan", "Sort", ...). */
  nodes: string[];
  /** The indexes read, by the parent (partitioned) index's name where a partition's index was read. */
  indexes: Set<string>;
  /** The relations read by a sequential scan. */
  seqScans: string[];
  /** The plan as JSON, for a failing assertion's message. */
  text: string;
};

type Node = { 'Node Type'?: string; 'Index Name'?: string; 'Relation Name'?: string; Plans?: Node[] };

/**
 * The plan of `query`, with sequential scans priced out (`enable_seqscan = off`) when `noSeqScan`, as the small
 * tables of a test would otherwise be read whole whatever the indexes.
 */
export async function planOf(db: Executor, query: SQL | { getSQL(): SQL }, options: { noSeqScan?: boolean } = {}) {
  const parents = new Map(
    rowsOf<{ child: string; parent: string }>(
      await db.execute(sql`
        select c.relname as child, p.relname as parent from pg_inherits i
        join pg_class c on c.oid = i.inhrelid join pg_class p on p.oid = i.inhparent
        where c.relkind = 'i'`),
    ).map((row) => [row.child, row.parent]),
  );
  const explained = await db.transaction(async (tx) => {
    if (options.noSeqScan) await tx.execute(sql`set local enable_seqscan = off`);
    const statement = 'getSQL' in query ? query.getSQL() : query;
    return rowsOf<{ 'QUERY PLAN': unknown }>(await tx.execute(sql`explain (format json) ${statement}`));
  });
  const raw = explained[0]?.['QUERY PLAN'];
  const root = (typeof raw === 'string' ? JSON.parse(raw) : raw) as { Plan: Node }[];
  const plan: Plan = { nodes: [], indexes: new Set(), seqScans: [], text: JSON.stringify(root) };
  const walk = (node: Node) => {
    if (node['Node Type']) plan.nodes.push(node['Node Type']);
    const index = node['Index Name'];
    if (index) plan.indexes.add(parents.get(index) ?? index);
    if (node['Node Type'] === 'Seq Scan' && node['Relation Name']) plan.seqScans.push(node['Relation Name']);
    for (const child of node.Plans ?? []) walk(child);
  };
  for (const entry of root) walk(entry.Plan);
  return plan;
}
