import { mkdirSync, readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import { pagePlainText } from '#contract/page-text.ts';
import { ROUTES } from '#contract/routes.ts';
import { newPerson, registerViaApi, type Person } from './accounts.ts';
import { expect, expectNoAxeViolations, expectNoSidewaysScroll, test } from './fixtures.ts';

/*
 * Issue 24's "Done when", as a new student would try it: with the keyboard only (no mouse
 * click anywhere: Tab, Enter, Space, the arrows), at 390 px, then again on a second browser;
 * bookmarks, citations and Listen at 1280 px; and the privacy of it all in the browser.
 */

const FRANKENSTEIN = 'Frankenstein; or, The Modern Prometheus';
/** Chapter 5 of the demo companion (`server/db/demo-data/frankenstein-companion.ts`). */
const CHAPTER_5_PAGE = 11;
const SENTENCE =
  'On a rainy night in November, Victor brings his creation to life and watches its yellow eye open.';
const NOTE = 'The creature is born in the rain: compare the storm in Chapter 7.';

/** Where the screenshots to look at go (CONTRIBUTING: look at it at 1280 and 390 px). */
const SHOTS = process.env.VIEWER_SHOTS_DIR ?? '/tmp/viewer2-shots';

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

/** A browser of its own (cookies, storage) at `viewport`, failing on console errors. */
async function browserFor(
  browser: Browser,
  baseURL: string,
  viewport: { width: number; height: number },
  errors: string[],
): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ baseURL, viewport });
  const page = await context.newPage();
  page.on('pageerror', (error) => errors.push(`uncaught: ${error.message}`));
  page.on('console', (message) => {
    if (!['error', 'warning'].includes(message.type())) return;
    // Other sites (the covers' hosts, unreachable here) are not ours to judge.
    const source = message.location().url;
    if (source && !source.startsWith(baseURL)) return;
    if (
      /^Failed to load resource: the server responded with a status of 4\d\d/.test(message.text())
    )
      return;
    errors.push(`${message.type()}: ${message.text()}`);
  });
  return { context, page };
}

/** Signs in through the sign-in screen with the keyboard: type, Tab, Enter. */
async function signInWithKeyboard(page: Page, person: Person): Promise<void> {
  await page.goto(ROUTES.signIn);
  await page.getByLabel('Email').focus();
  await page.keyboard.type(person.email);
  await page.getByLabel('Password').focus();
  await page.keyboard.type(person.password);
  await page.keyboard.press('Enter');
  await expect(page).not.toHaveURL(/\/signin/);
}

/** Finds Frankenstein in the library search with the keyboard and opens it. */
async function openFrankenstein(page: Page): Promise<void> {
  await page.goto(ROUTES.librarySearch);
  await page.getByLabel('Keywords').focus();
  await page.keyboard.type('frankenstein modern prometheus');
  await page.keyboard.press('Enter');
  const result = page.getByRole('button', { name: FRANKENSTEIN });
  await result.first().focus();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('heading', { level: 2, name: FRANKENSTEIN })).toBeVisible();
}

/** The page area: a region named "Page x of y". */
const pageArea = (page: Page) => page.getByRole('region', { name: /^Page \d+ of \d+$/ });

/** The page's text, where a keyboard selection is made (the element after the hint). */
const pageText = (page: Page) => pageArea(page).locator('[tabindex="0"][aria-describedby$="-how"]');

/** Presses Tab until `target` has the focus: the way a keyboard user gets there. */
async function tabTo(page: Page, target: Locator, most = 30): Promise<void> {
  for (let step = 0; step < most; step++) {
    if (await target.evaluate((element) => element === document.activeElement)) return;
    await page.keyboard.press('Tab');
  }
  await expect(target).toBeFocused();
}

/** Presses Enter on the toolbar button `name` (focused first, as Tab would). */
async function pressButton(page: Page, name: string | RegExp): Promise<void> {
  await page.getByRole('button', { name, exact: typeof name === 'string' }).focus();
  await page.keyboard.press('Enter');
}

/*
 * Headless Chromium has speechSynthesis but no voice to speak with: an utterance may never
 * end. The tests that press Listen stand in a small synthesis that "speaks" each sentence in 300 ms, firing
 * the events the real one fires, so what the UI promises (Listen, Pause, Resume, Stop, the
 * sentence being read marked) can be checked. The real API is the unit tests' business.
 */
async function fakeSpeech(page: Page): Promise<void> {
  await page.addInitScript(() => {
    const queue: SpeechSynthesisUtterance[] = [];
    let timer: ReturnType<typeof setTimeout> | undefined;
    let current: SpeechSynthesisUtterance | undefined;
    const next = () => {
      current = queue.shift();
      if (!current) return;
      const utterance = current;
      utterance.onstart?.(new Event('start') as SpeechSynthesisEvent);
      timer = setTimeout(() => {
        current = undefined;
        utterance.onend?.(new Event('end') as SpeechSynthesisEvent);
        next();
      }, 300);
    };
    const fake = {
      get speaking() {
        return current !== undefined;
      },
      get pending() {
        return queue.length > 0;
      },
      paused: false,
      speak(utterance: SpeechSynthesisUtterance) {
        queue.push(utterance);
        if (!current) next();
      },
      cancel() {
        clearTimeout(timer);
        const stopped = [current, ...queue.splice(0)].filter(Boolean);
        current = undefined;
        for (const utterance of stopped)
          utterance!.onerror?.(
            Object.assign(new Event('error'), {
              error: 'interrupted',
            }) as SpeechSynthesisErrorEvent,
          );
      },
      pause() {},
      resume() {},
      getVoices: () => [],
      addEventListener() {},
      removeEventListener() {},
    };
    Object.defineProperty(window, 'speechSynthesis', { value: fake, configurable: true });
  });
}

test.describe('reading with notes', () => {
  test('Done when: keyboard only at 390 px, contents, search, a highlight with a note, another browser, Markdown', async ({
    browser,
    baseURL,
    request,
  }) => {
    test.setTimeout(180_000);
    mkdirSync(SHOTS, { recursive: true });
    const student = newPerson();
    await registerViaApi(request, baseURL!, student);
    const errors: string[] = [];

    // ---- The first browser ----
    const first = await browserFor(browser, baseURL!, PHONE, errors);
    let page = first.page;
    await signInWithKeyboard(page, student);
    await openFrankenstein(page);
    await expect(page.getByText(/^Page 1 of 30$/)).toBeVisible();
    await expectNoSidewaysScroll(page);

    // Contents, as a drawer: Chapter 5 is page 11.
    const kept = page.waitForResponse(
      (response) =>
        response.url().endsWith('/progress') &&
        response.request().method() === 'PUT' &&
        (response.request().postDataJSON() as { page: number }).page === CHAPTER_5_PAGE,
    );
    await pressButton(page, 'Contents');
    const contents = page.getByRole('dialog', { name: 'Contents' });
    await expect(contents).toBeFocused();
    await expectNoAxeViolations(page);
    await contents.getByRole('button', { name: `Chapter 5, page ${CHAPTER_5_PAGE}` }).focus();
    await page.keyboard.press('Enter');
    await expect(contents).toBeHidden();
    await expect(page).toHaveURL(new RegExp(`[?&]page=${CHAPTER_5_PAGE}(&|$)`));
    await expect(pageArea(page).getByRole('heading', { name: 'Chapter 5' })).toBeVisible();

    // Search in book: "creature", and the hit on this chapter's page.
    await pressButton(page, 'Search in book');
    const search = page.getByRole('dialog', { name: 'Search in book' });
    await expect(search.getByLabel('Words to find in this book')).toBeFocused();
    await page.keyboard.type('creature');
    await page.keyboard.press('Enter');
    const hit = search
      .getByRole('list', { name: 'Pages found' })
      .getByRole('button', { name: new RegExp(`^Page ${CHAPTER_5_PAGE}\\b`) });
    await expect(hit).toBeVisible();
    await expectNoAxeViolations(page);
    await hit.focus();
    await page.keyboard.press('Enter');
    await expect(search).toBeHidden();
    await expect(
      pageArea(page)
        .locator('mark')
        .filter({ hasText: /^creature$/i })
        .first(),
    ).toBeVisible();
    expect((await kept).ok()).toBe(true);

    // A sentence, from the keyboard: Tab into the text, Ctrl+↓ picks the paragraph's first word,
    // Shift+Ctrl+→ grows the selection word by word to the full stop.
    await tabTo(page, pageText(page));
    await page.keyboard.press('Control+ArrowDown');
    const selected = () => page.evaluate(() => document.getSelection()?.toString().trim() ?? '');
    await expect.poll(selected).toBe('On');
    for (let word = 0; word < 40 && !(await selected()).endsWith('.'); word++)
      await page.keyboard.press('Shift+Control+ArrowRight');
    expect(await selected()).toBe(SENTENCE);
    const toolbar = page.getByRole('group', { name: /^Selected: “On a rainy night/ });
    await expect(toolbar).toBeVisible();
    await page.keyboard.press('Tab');
    await expect(toolbar.getByRole('button', { name: 'Highlight', exact: true })).toBeFocused();
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);
    await toolbar.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/selection-toolbar-390.png` });
    await page.keyboard.press('Tab');
    await expect(toolbar.getByRole('button', { name: 'Highlight with note' })).toBeFocused();
    await page.keyboard.press('Enter');
    const noteBox = toolbar.getByLabel('Note on this passage');
    await expect(noteBox).toBeFocused();
    await page.keyboard.type(NOTE);
    await expectNoAxeViolations(page);
    await page.keyboard.press('Tab');
    await expect(toolbar.getByRole('button', { name: 'Save highlight' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(toolbar).toBeHidden();
    await expect(pageText(page)).toBeFocused();
    const highlight = pageArea(page).getByRole('button', { name: SENTENCE });
    await expect(highlight).toBeVisible();

    // The highlight opens with Enter and shows its note.
    await tabTo(page, highlight);
    await page.keyboard.press('Enter');
    const opened = page.getByRole('region', { name: /^Your highlight/ });
    await expect(opened).toBeFocused();
    await expect(opened).toContainText(NOTE);
    await expectNoAxeViolations(page);
    await opened.scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/highlight-note-390.png` });

    // The browser is closed.
    await first.context.close();

    // ---- Another browser, the same student ----
    const second = await browserFor(browser, baseURL!, PHONE, errors);
    page = second.page;
    await signInWithKeyboard(page, student);
    await openFrankenstein(page);
    const resume = page.getByRole('button', { name: `Continue from page ${CHAPTER_5_PAGE}` });
    await tabTo(page, resume, 40);
    await expectNoAxeViolations(page);
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`[?&]page=${CHAPTER_5_PAGE}(&|$)`));
    const again = pageArea(page).getByRole('button', { name: SENTENCE });
    await expect(again).toBeVisible();
    await expect(again).toHaveAccessibleDescription(`Highlighted, with your note: ${NOTE}`);

    // Display: dark, then sepia, kept; each checked by axe.
    await pressButton(page, 'Display');
    const display = page.getByRole('dialog', { name: 'Display' });
    await display.getByRole('radio', { name: 'Dark' }).focus();
    await page.keyboard.press('Space');
    await expect(pageArea(page)).toHaveAttribute('data-theme', 'dark');
    await expectNoAxeViolations(page);
    await page.keyboard.press('Escape');
    await expect(display).toBeHidden();
    await expectNoAxeViolations(page);
    await pageArea(page).scrollIntoViewIfNeeded();
    await page.screenshot({ path: `${SHOTS}/dark-390.png` });
    await pressButton(page, 'Display');
    await display.getByRole('radio', { name: 'Sepia' }).focus();
    await page.keyboard.press('Space');
    await expect(pageArea(page)).toHaveAttribute('data-theme', 'sepia');
    await page.keyboard.press('Escape');
    await expectNoAxeViolations(page);
    await expect(page.getByRole('group', { name: 'Read aloud' })).toBeVisible();

    // My notes: the highlight with its note; the Markdown export.
    await pressButton(page, 'My notes');
    const notes = page.getByRole('dialog', { name: 'My notes' });
    await expect(
      notes.getByRole('button', { name: `Go to page ${CHAPTER_5_PAGE}: “${SENTENCE}”` }),
    ).toBeVisible();
    await expect(notes).toContainText(NOTE);
    await expectNoAxeViolations(page);
    await expectNoSidewaysScroll(page);
    await page.screenshot({ path: `${SHOTS}/my-notes-390.png` });
    const exportLink = notes.getByRole('link', { name: 'Export as Markdown' });
    await exportLink.focus();
    const downloading = page.waitForEvent('download');
    await page.keyboard.press('Enter');
    const download = await downloading;
    expect(download.suggestedFilename()).toMatch(/frankenstein.*-notes\.md$/);
    const markdown = readFileSync((await download.path())!, 'utf8');
    expect(markdown).toMatch(/^# Frankenstein/);
    expect(markdown).toContain(`> ${SENTENCE} (p. ${CHAPTER_5_PAGE})`);
    expect(markdown).toContain(NOTE);
    expect(markdown).toMatch(/Shelley/);

    await second.context.close();
    expect(errors, 'errors in the browser console').toEqual([]);
  });

  test('at 1280 px: bookmarks, citations and Listen; nobody else sees any of it', async ({
    page,
    baseURL,
    browser,
  }) => {
    test.setTimeout(120_000);
    mkdirSync(SHOTS, { recursive: true });
    // A stand-in for the speech synthesis: see fakeSpeech.
    await fakeSpeech(page);
    await page.setViewportSize(DESKTOP);
    const student = newPerson();
    await registerViaApi(page.request, baseURL!, student);
    await openFrankenstein(page);

    // Bookmark page 11 (the address names it), then read on to page 12.
    await page.goto(`${page.url()}&page=${CHAPTER_5_PAGE}`);
    await expect(page.getByText(`Page ${CHAPTER_5_PAGE} of 30`)).toBeVisible();
    const bookmark = page.getByRole('button', { name: 'Bookmark this page' });
    // Enabled once the reader's bookmarks are known.
    await expect(bookmark).toBeEnabled();
    await bookmark.focus();
    await page.keyboard.press('Enter');
    const remove = page.getByRole('button', { name: 'Remove bookmark' });
    await expect(remove).toHaveAttribute('aria-pressed', 'true');
    await expect(remove).toBeFocused();
    await page.keyboard.press('ArrowRight');
    await expect(page).toHaveURL(new RegExp(`[?&]page=${CHAPTER_5_PAGE + 1}(&|$)`));
    await expect(page.getByRole('button', { name: 'Bookmark this page' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );

    // My notes lists it and jumps back.
    await pressButton(page, 'My notes');
    const notes = page.getByRole('region', { name: 'My notes' }).first();
    await expect(notes).toContainText('Bookmarked');
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SHOTS}/my-notes-1280.png` });
    await notes.getByRole('button', { name: `Page ${CHAPTER_5_PAGE}`, exact: true }).focus();
    await page.keyboard.press('Enter');
    await expect(page).toHaveURL(new RegExp(`[?&]page=${CHAPTER_5_PAGE}(&|$)`));

    // The citation links hand out BibTeX and RIS for the book.
    const bibtexHref = await notes.getByRole('link', { name: 'BibTeX' }).getAttribute('href');
    const risHref = await notes.getByRole('link', { name: 'RIS' }).getAttribute('href');
    const bibtex = await page.request.get(bibtexHref!);
    expect(bibtex.ok()).toBe(true);
    expect(await bibtex.text()).toMatch(/^@book\{[^,]+,[\s\S]*title = \{Frankenstein/);
    const ris = await page.request.get(risHref!);
    expect(ris.ok()).toBe(true);
    expect(await ris.text()).toMatch(/^TY {2}- BOOK[\s\S]*TI {2}- Frankenstein[\s\S]*ER {2}-/);
    await page.keyboard.press('Escape');

    // Listen: the sentence being read is marked; Pause, Resume, Stop.
    const listen = page.getByRole('button', { name: 'Listen' });
    await listen.focus();
    await page.keyboard.press('Enter');
    const pauseButton = page.getByRole('button', { name: 'Pause' });
    await expect(pauseButton).toBeFocused();
    const spoken = pageArea(page).locator('[class*="spoken"]');
    await expect(spoken.first()).toBeVisible();
    await expect(page.getByRole('button', { name: 'Stop' })).toBeVisible();
    await expectNoAxeViolations(page);
    await page.screenshot({ path: `${SHOTS}/listen-1280.png` });
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Resume' })).toBeFocused();
    await page.keyboard.press('Enter');
    await expect(pauseButton).toBeVisible();
    await page.getByRole('button', { name: 'Stop' }).focus();
    await page.keyboard.press('Enter');
    await expect(listen).toBeVisible();
    await expect(spoken).toHaveCount(0);

    // A highlight with a note too, through the API (the keyboard way is the test above).
    const id = new URL(page.url()).searchParams.get('item')!;
    const text = await page.request.get(`/api/items/${id}/pages?page=${CHAPTER_5_PAGE}`);
    const plain = pagePlainText(((await text.json()) as { content: string }).content);
    const start = plain.indexOf(SENTENCE);
    expect(start).toBeGreaterThan(0);
    const created = await page.request.post(`/api/items/${id}/highlights`, {
      headers: { origin: baseURL! },
      data: {
        page: CHAPTER_5_PAGE,
        start,
        end: start + SENTENCE.length,
        quote: SENTENCE,
        note: NOTE,
      },
    });
    expect(created.ok()).toBe(true);
    await page.reload();
    await expect(pageArea(page).locator('[data-highlight]').first()).toBeVisible();

    // Privacy: another student opening the same page sees no bookmark and no notes.
    const errors: string[] = [];
    const other = await browserFor(browser, baseURL!, DESKTOP, errors);
    await registerViaApi(other.context.request, baseURL!, newPerson());
    await other.page.goto(`${ROUTES.librarySearch}?item=${id}&page=${CHAPTER_5_PAGE}`);
    await expect(other.page.getByText(`Page ${CHAPTER_5_PAGE} of 30`)).toBeVisible();
    await expect(other.page.getByRole('button', { name: 'Bookmark this page' })).toHaveAttribute(
      'aria-pressed',
      'false',
    );
    await expect(pageArea(other.page).locator('[data-highlight]')).toHaveCount(0);
    await pressButton(other.page, 'My notes');
    await expect(other.page.getByText(/^No notes yet\./)).toBeVisible();
    await other.context.close();
    expect(errors).toEqual([]);
  });

  for (const viewport of [DESKTOP, PHONE])
    test(`screenshots at ${viewport.width} px: a highlight and its note, the selection, My notes, Listen, dark`, async ({
      page,
      baseURL,
    }) => {
      test.setTimeout(90_000);
      mkdirSync(SHOTS, { recursive: true });
      const width = viewport.width;
      await fakeSpeech(page);
      await page.setViewportSize(viewport);
      await registerViaApi(page.request, baseURL!, newPerson());
      await openFrankenstein(page);
      const id = new URL(page.url()).searchParams.get('item')!;
      const text = await page.request.get(`/api/items/${id}/pages?page=${CHAPTER_5_PAGE}`);
      const plain = pagePlainText(((await text.json()) as { content: string }).content);
      const start = plain.indexOf(SENTENCE);
      const created = await page.request.post(`/api/items/${id}/highlights`, {
        headers: { origin: baseURL! },
        data: {
          page: CHAPTER_5_PAGE,
          start,
          end: start + SENTENCE.length,
          quote: SENTENCE,
          note: NOTE,
        },
      });
      expect(created.ok()).toBe(true);
      await page.goto(`${ROUTES.librarySearch}?item=${id}&page=${CHAPTER_5_PAGE}`);

      // The highlight, opened with Enter.
      const highlight = pageArea(page).getByRole('button', { name: SENTENCE });
      await highlight.focus();
      await page.keyboard.press('Enter');
      const opened = page.getByRole('region', { name: /^Your highlight/ });
      await expect(opened).toContainText(NOTE);
      await opened.scrollIntoViewIfNeeded();
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: `${SHOTS}/highlight-note-${width}.png` });
      await page.keyboard.press('Escape');
      await expect(opened).toBeHidden();

      // A selection in the second paragraph, and its toolbar.
      await expect(pageText(page)).toBeFocused();
      await page.keyboard.press('Control+ArrowDown');
      await page.keyboard.press('Control+ArrowDown');
      for (let word = 0; word < 6; word++) await page.keyboard.press('Shift+Control+ArrowRight');
      const toolbar = page.getByRole('group', { name: /^Selected: / });
      await expect(toolbar).toBeVisible();
      await toolbar.scrollIntoViewIfNeeded();
      await expectNoSidewaysScroll(page);
      await page.screenshot({ path: `${SHOTS}/selection-toolbar-${width}.png` });
      await page.keyboard.press('Escape');
      await expect(toolbar).toBeHidden();

      // My notes.
      await pressButton(page, 'My notes');
      await expect(page.getByText(NOTE, { exact: true }).first()).toBeVisible();
      await page.screenshot({ path: `${SHOTS}/my-notes-${width}.png` });
      await page.keyboard.press('Escape');

      // Listen, playing: the sentence read is marked.
      await pressButton(page, 'Listen');
      const spoken = pageArea(page).locator('[class*="spoken"]');
      await expect(spoken.first()).toBeVisible();
      await page.getByRole('group', { name: 'Reading tools' }).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/listen-${width}.png` });
      await pressButton(page, 'Stop');

      // Dark, with the highlight and a search word on the page.
      await pressButton(page, 'Display');
      await page.getByRole('radio', { name: 'Dark' }).focus();
      await page.keyboard.press('Space');
      await expect(pageArea(page)).toHaveAttribute('data-theme', 'dark');
      await page.keyboard.press('Escape');
      await expectNoAxeViolations(page);
      await pageArea(page).scrollIntoViewIfNeeded();
      await page.screenshot({ path: `${SHOTS}/dark-${width}.png` });
    });
});
