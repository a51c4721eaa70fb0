/** Concrete URLs for every route of the table, with sample parameters, for the browser tests. */
import { ROUTES } from '../../src/lib/routes.ts';

const SAMPLE: Record<string, string> = {
  space_id: '3f2b8c1e-7d4a-4e59-9a51-0c6f1b2d3e4f',
  id: '9b1d7e0a-52c4-4f8e-8a3b-6d2c1f0e9a7b',
  waf_id: 'c4d5e6f7-0809-4a1b-9c2d-3e4f5a6b7c8d',
  token: 'tok_8f3a9c2b7d1e',
};

/** Every route as [route, concrete path], in the given space (a sample id when none). */
export function samplePaths(spaceId: string = SAMPLE.space_id as string) {
  return ROUTES.map(
    (route) =>
      [
        route,
        route.pattern.replace(/\{([a-z_]+)\}/g, (_match, name: string) =>
          name === 'space_id' ? spaceId : (SAMPLE[name] ?? name),
        ),
      ] as const,
  );
}
