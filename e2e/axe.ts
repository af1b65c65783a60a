import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * Rules that judge the page behind an open modal dialog: what the dialog hides from assistive technology
 * must not stay reachable by keyboard, and the page must not hide itself whole.
 */
const BACKGROUND_RULES = ['aria-hidden-focus', 'aria-hidden-body'];

/** Radix's modal dialogs (the only dialogs the app has) mark an open one with data-state. */
const OPEN_DIALOG = '[role="dialog"][data-state="open"], [role="alertdialog"][data-state="open"]';

/**
 * Only violations are judged, so axe lists one example of each passing, incomplete or inapplicable rule rather
 * than every node (its `resultTypes` option): on a screen with a full table that is most of a scan's time.
 *
 * Legacy mode runs axe.run() in the page itself. The default runs axe in each frame and then opens a blank
 * page to merge the frames' results, which for our pages (no iframes) only adds a new page and a second copy
 * of axe per scan: 40% of the scans' time (23 s -> 13 s over the Claims, Authorizations, Overdue follow-ups
 * and Compliance scans). What legacy mode gives up is cross-origin iframes, and the app has no iframe at all; the
 * same rules run on the same nodes (a planted low-contrast text and a nameless button are still found).
 */
async function scan(page: Page): Promise<AxeBuilder> {
  // AxeBuilder evaluates axe-core's 500 KB source into the page for every scan (twice in legacy mode), 0.2 to
  // 0.3 s each time: a document that has it already (an earlier scan of this screen, or of one the app moved
  // on from) reuses it. axe.run starts afresh each time, and the configuration is applied again.
  const loaded = await page.evaluate(() => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function');
  return new AxeBuilder({ page, ...(loaded ? { axeSource: ';' } : {}) })
    .setLegacyMode()
    .options({ resultTypes: ['violations'] });
}

function serious(results: Awaited<ReturnType<AxeBuilder['analyze']>>): string[] {
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/**
 * axe's serious and critical violations on the page as it is now, one line each with the offending nodes.
 *
 * With a modal dialog open, the dialog gets every rule and the rest of the page only the rules about what
 * the dialog hides: the page itself was scanned without the dialog (every accessibility test does that
 * first), and axe over every cell of a full table behind an overlay takes seconds for nothing new.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  if ((await page.locator(OPEN_DIALOG).count()) === 0) return serious(await (await scan(page)).analyze());
  const inside = await (await scan(page)).include(OPEN_DIALOG).analyze();
  const behind = await (await scan(page)).withRules(BACKGROUND_RULES).analyze();
  return [...serious(inside), ...serious(behind)];
}

/**
 * axe's serious and critical violations inside parts of the page (a tab's panel, what an action changed), for
 * a screen that was scanned whole already: the unchanged sidebar, header and rest of the screen need no
 * second scan.
 */
export async function seriousViolationsWithin(page: Page, ...selectors: [string, ...string[]]): Promise<string[]> {
  const builder = await scan(page);
  for (const selector of selectors) builder.include(selector);
  return serious(await builder.analyze());
}
