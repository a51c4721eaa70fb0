/** Checks every screen's journey ends with: axe finds nothing (in both themes), and nothing scrolls sideways at 375 px. */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page, type TestInfo } from '@playwright/test';

/** axe on the page as it is, each violation named with its elements and why. */
export async function expectNoAxeViolations(page: Page, label: string): Promise<void> {
  await page.waitForLoadState('networkidle');
  const results = await new AxeBuilder({ page }).analyze();
  expect(
    results.violations.map(
      (violation) =>
        `${label} ${violation.id}: ${violation.help} (${violation.nodes
          .map((node) => `${node.target.join(' ')} ${node.html.slice(0, 120)} ${node.failureSummary ?? ''}`)
          .join(', ')})`,
    ),
  ).toEqual([]);
}

/** Accessible in light and in dark, then back to light (through the top bar's theme toggle). */
export async function expectAccessibleInBothThemes(page: Page, label: string): Promise<void> {
  await expectNoAxeViolations(page, `${label}, light`);
  await page.getByRole('radio', { name: /Dark/ }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'dark');
  await expectNoAxeViolations(page, `${label}, dark`);
  await page.getByRole('radio', { name: /Light/ }).check();
  await expect(page.locator('html')).toHaveAttribute('data-theme', 'light');
}

/** At 375 px the page does not scroll sideways: wide tables scroll in their own box. */
export async function expectNoSidewaysScroll(page: Page, label: string): Promise<void> {
  const size = page.viewportSize();
  const overflow = await sidewaysAt375(page);
  if (size) await page.setViewportSize(size);
  expect(overflow, `${label}: the page scrolls sideways at 375 px`).toBeLessThanOrEqual(0);
}

/** How far the page scrolls sideways once it is laid out at 375 px wide (the viewport stays that wide). */
export async function sidewaysAt375(page: Page): Promise<number> {
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForFunction(() => window.innerWidth === 375);
  await nextFrames(page);
  return page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
}

/** Two frames painted: resize and intersection observers and the renders they cause have run. */
export async function nextFrames(page: Page): Promise<void> {
  await page.evaluate(
    () => new Promise<void>((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve()))),
  );
}

/**
 * Waits until every request the page had started has reached the test: the page asks for /api/health now and the
 * test waits to see that request, which the browser reports after all the ones started before it.
 */
export async function requestsSeen(page: Page): Promise<void> {
  await Promise.all([
    page.waitForRequest((request) => new URL(request.url()).pathname === '/api/health'),
    page.evaluate(() => fetch('/api/health').then(() => undefined)),
  ]);
}

/** A full-page screenshot, kept as a file in the test's output folder (test-results/) and attached to the report. */
export async function attachScreenshot(page: Page, testInfo: TestInfo, file: string): Promise<void> {
  const path = testInfo.outputPath(file);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(file, { path, contentType: 'image/png' });
}
