/**
 * Every full-screen page (the console-full layout has no navigation rail) shows a visible way back to where it was
 * opened from, at desktop and phone widths.
 */
import { layoutOf, ROUTES } from '../../src/lib/routes.ts';
import { expect, test } from './fixtures.ts';

const fullScreen = ROUTES.filter((route) => layoutOf(route) === 'console-full');

test('there is a full-screen route to check', () => {
  expect(fullScreen.map((route) => route.pattern)).toContain('/console/dashboard/explore/{space_id}/{id}');
});

for (const viewport of [
  { width: 1440, height: 900 },
  { width: 375, height: 812 },
]) {
  for (const route of fullScreen) {
    test(`${route.pattern} at ${viewport.width} px has a visible way back`, async ({ page, account }) => {
      await page.setViewportSize(viewport);
      // The space's default dashboard, made with the space.
      const list = (await (await page.request.get(`/api/spaces/${account.spaceId}/dashboards`)).json()) as {
        items: { id: string }[];
      };
      const id = list.items[0]?.id as string;
      const path = route.pattern.replace('{space_id}', account.spaceId).replace('{id}', id);
      await page.goto(path);
      await expect(page.getByRole('navigation', { name: 'Console' })).toHaveCount(0);
      const back = page.getByRole('link', { name: /Dashboards/ }).first();
      await expect(back).toBeVisible();
      await expect(back).toBeInViewport();
      await back.click();
      await expect(page).toHaveURL(`/console/dashboard/${account.spaceId}`);
    });
  }
}
