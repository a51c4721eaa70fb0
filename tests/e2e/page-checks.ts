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
  await page.setViewportSize({ width: 375, height: 800 });
  await page.waitForTimeout(300);
  const overflow = await page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
  if (size) await page.setViewportSize(size);
  expect(overflow, `${label}: the page scrolls sideways at 375 px`).toBeLessThanOrEqual(0);
}

/** A full-page screenshot, kept as a file in the test's output folder (test-results/) and attached to the report. */
export async function attachScreenshot(page: Page, testInfo: TestInfo, file: string): Promise<void> {
  const path = testInfo.outputPath(file);
  await page.screenshot({ path, fullPage: true });
  await testInfo.attach(file, { path, contentType: 'image/png' });
}
