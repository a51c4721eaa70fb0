import { hc } from 'hono/client';
import { expect, expectTypeOf, test } from 'vitest';
import type { SpaceCardList } from '../contract/spaces.ts';
import type { AppType } from './app.ts';

test('AppType gives islands a typed client', () => {
  const client = hc<AppType>('http://localhost:4321');
  expect(typeof client.api.spaces.$get).toBe('function');
  type Ok = Extract<Awaited<ReturnType<typeof client.api.spaces.$get>>, { status: 200 }>;
  expectTypeOf<Awaited<ReturnType<Ok['json']>>>().toEqualTypeOf<SpaceCardList>();
  expectTypeOf(client.api.spaces[':spaceId'].members.$get).parameter(0).toHaveProperty('param');
});
