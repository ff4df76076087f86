import { type ReactNode, useEffect, useId, useRef, useState } from 'react';
import { DEFAULT_READING_PREFERENCES } from '#contract/http/reading.ts';
import { useItemPage } from '../../api/catalogue.ts';
import {
  useBookContents,
  useReadingPreferences,
  useReadingState,
  useSaveProgress,
  useUpdateReadingPreferences,
} from '../../api/reading.ts';
import { useCurrentUser } from '../../api/session.ts';
import { useMediaQuery } from '../../hooks/use-media-query.ts';
import { PageText } from '../catalogue/page-text.tsx';
import { Pager } from '../catalogue/pager.tsx';
import { Button } from '../ui/button.tsx';
import styles from './book-viewer.module.css';
import { ContentsPanel, currentChapter } from './contents-panel.tsx';
import { DisplayPanel } from './display-panel.tsx';
import { usePageKeys, useSwipe } from './page-turn.ts';
import { SearchInsidePanel } from './search-inside-panel.tsx';
import {
  DrawerPanel,
  panelElementId,
  SidePanel,
  type ViewerContext,
  type ViewerPanel,
} from './viewer-panels.tsx';

export type { ViewerContext, ViewerPanel } from './viewer-panels.tsx';

/** Phones and narrow windows: panels open as a drawer over the page, not beside it. */
export const DRAWER_MEDIA_QUERY = '(max-width: 700px)';

/** How long the page must stay the same before it is kept as where the reader is. */
export const PROGRESS_SAVE_DELAY_MS = 1000;

/**
 * What renders the page's text (page markup, `contract/page-text.ts`) with the search's `words`
 * marked: the plain page by default, or one with highlights (`AnnotatedPage` takes these props).
 */
export type PageRenderer = (props: {
  itemId: string;
  page: number;
  text: string;
  words: string[];
}) => ReactNode;

const plainPage: PageRenderer = ({ text, words }) => <PageText text={text} words={words} />;

/** What a panel or a tool renders for the page shown (a component, so it may keep state). */
function Rendered({
  render,
  context,
}: {
  render: (context: ViewerContext) => ReactNode;
  context: ViewerContext;
}) {
  return render(context);
}

/** The page the address asks for, within the book. */
export function clampPage(page: number | null, pageCount: number): number {
  return Math.min(Math.max(page ?? 1, 1), Math.max(pageCount, 1));
}

/**
 * A held text, page by page, as a reading tool: the page in the address (`page`, changed through
 * `onPageChange`), ← → and swipes to turn, panels (Contents, Search in book, Display and any
 * `extraPanels`), the chapter above the text, an offer to continue where the reader left off, and
 * their progress and display kept on the server.
 */
export function BookViewer({
  item,
  page: requestedPage,
  onPageChange,
  extraPanels = [],
  tools,
  renderPage = plainPage,
}: {
  item: { id: string; title: string; pageCount: number };
  /** The page the address names, or null when it names none (the reader may then resume). */
  page: number | null;
  /** Shows another page by changing the address: a new history entry, or in place (`replace`). */
  onPageChange: (page: number, options?: { replace?: boolean }) => void;
  /** Panels after Contents, Search in book and Display ("My notes"). */
  extraPanels?: ViewerPanel[];
  /** More tools at the end of the toolbar ("Bookmark this page", "Listen"). */
  tools?: (context: ViewerContext) => ReactNode;
  /** Renders the page's text; the plain page by default. */
  renderPage?: PageRenderer;
}) {
  const viewerId = useId();
  const pageCount = item.pageCount;
  const page = clampPage(requestedPage, pageCount);
  const signedIn = Boolean(useCurrentUser().data);
  const narrow = useMediaQuery(DRAWER_MEDIA_QUERY);

  const text = useItemPage(item.id, page, true);
  const contents = useBookContents(item.id, true);
  const reading = useReadingState(item.id, signedIn);
  const saveProgress = useSaveProgress(item.id);
  const preferencesQuery = useReadingPreferences(signedIn);
  const updatePreferences = useUpdateReadingPreferences();
  const preferences = preferencesQuery.data ?? DEFAULT_READING_PREFERENCES;

  const [words, setWords] = useState<string[]>([]);
  // The search in the book outlives its panel: closed and opened again, it lists the same hits.
  const [searchQuery, setSearchQuery] = useState('');
  const [openPanel, setOpenPanel] = useState<string | null>(null);
  const toggles = useRef(new Map<string, HTMLButtonElement>());
  const pageArea = useRef<HTMLDivElement>(null);

  // An address past the end (an old link, a shorter edition) shows the last page, and says so
  // in the address too.
  useEffect(() => {
    if (requestedPage !== null && requestedPage !== page) onPageChange(page, { replace: true });
  }, [requestedPage, page, onPageChange]);

  // Resume: only when the address named no page as the book opened (the viewer is keyed by item),
  // and only until the reader moves or answers.
  const [openedAt] = useState(() => ({ named: requestedPage !== null, page }));
  const [touched, setTouched] = useState(false);
  const moved = touched || page !== openedAt.page;
  const lastPage = reading.data?.lastPage ?? null;
  const resumeTo =
    !openedAt.named && !moved && lastPage !== null && lastPage > 1
      ? Math.min(lastPage, pageCount)
      : null;

  // Progress: once the reader has moved (or chosen where to start), the page shown for a second
  // is where they are. Merely opening a book keeps nothing.
  const { mutate: saveProgressNow } = saveProgress;
  const unsaved = useRef<number | null>(null);
  useEffect(() => {
    if (!signedIn || !moved) return;
    unsaved.current = page;
    const timer = setTimeout(() => {
      unsaved.current = null;
      saveProgressNow(page);
    }, PROGRESS_SAVE_DELAY_MS);
    return () => clearTimeout(timer);
  }, [page, moved, signedIn, saveProgressNow]);
  // Leaving the book (back to the results, another item) keeps the page not yet kept.
  useEffect(
    () => () => {
      if (unsaved.current !== null) saveProgressNow(unsaved.current);
    },
    [saveProgressNow],
  );

  // A new page starts at its top: a reader who turned at the bottom sees its first line.
  const shownPage = useRef(page);
  useEffect(() => {
    if (shownPage.current === page) return;
    shownPage.current = page;
    const area = pageArea.current;
    if (area && area.getBoundingClientRect().top < 0) area.scrollIntoView({ block: 'start' });
  }, [page]);

  const goTo = (target: number, marked: string[] = []) => {
    setTouched(true);
    setWords(marked);
    const next = clampPage(target, pageCount);
    if (next !== page) onPageChange(next);
  };
  const turn = (step: -1 | 1) => {
    const next = clampPage(page + step, pageCount);
    if (next !== page) goTo(next, words);
  };
  usePageKeys(turn, pageCount > 1);
  const swipe = useSwipe(turn);

  // Focus goes back to the button of the panel that closed, once it has closed: a drawer is
  // modal, and nothing outside it takes the focus while it is open.
  const returnFocus = useRef<string | null>(null);
  const closePanel = () => {
    returnFocus.current = openPanel;
    setOpenPanel(null);
  };
  useEffect(() => {
    if (openPanel !== null || returnFocus.current === null) return;
    toggles.current.get(returnFocus.current)?.focus();
    returnFocus.current = null;
  }, [openPanel]);
  // On phones the drawer covers the page: a jump from it closes it, to show the page.
  const jump = (target: number, marked?: string[]) => {
    goTo(target, marked);
    if (narrow) closePanel();
  };

  const context: ViewerContext = {
    itemId: item.id,
    page,
    pageCount,
    // While the next page loads the previous one stays on screen, but tools are not told it is
    // the page they are on.
    content: text.data && !text.isPlaceholderData ? text.data.content : undefined,
    goTo: jump,
  };

  const panels: ViewerPanel[] = [
    {
      id: 'contents',
      label: 'Contents',
      content: () => (
        <ContentsPanel
          entries={contents.data?.entries ?? []}
          status={contents.status}
          page={page}
          onJump={(target) => jump(target)}
        />
      ),
    },
    {
      id: 'search',
      label: 'Search in book',
      content: () => (
        <SearchInsidePanel
          itemId={item.id}
          page={page}
          query={searchQuery}
          onSearch={setSearchQuery}
          onJump={jump}
        />
      ),
    },
    {
      id: 'display',
      label: 'Display',
      content: () => (
        <DisplayPanel
          preferences={preferences}
          onChange={(changes) => updatePreferences.mutate(changes)}
          saveError={
            updatePreferences.isError
              ? 'Your choice could not be kept: check your connection and try again.'
              : null
          }
        />
      ),
    },
    ...extraPanels,
  ];

  const chapter = currentChapter(contents.data?.entries ?? [], page);
  const settleResume = (target: number | null) => {
    setTouched(true);
    if (target !== null) goTo(target);
    pageArea.current?.focus();
  };
  const Frame = narrow ? DrawerPanel : SidePanel;
  const open = panels.find((panel) => panel.id === openPanel) ?? null;

  return (
    <div className={styles.viewer}>
      <div className={styles.toolbar} role="group" aria-label="Reading tools">
        {panels.map((panel) => (
          <Button
            key={panel.id}
            variant="outline"
            className={styles.tool}
            ref={(element) => {
              if (element) toggles.current.set(panel.id, element);
              else toggles.current.delete(panel.id);
            }}
            aria-expanded={panel.id === openPanel}
            aria-controls={panel.id === openPanel ? panelElementId(viewerId, panel.id) : undefined}
            onClick={() => (panel.id === openPanel ? closePanel() : setOpenPanel(panel.id))}
          >
            {panel.label}
          </Button>
        ))}
        {tools ? (
          <div className={styles.tools}>
            <Rendered render={tools} context={context} />
          </div>
        ) : null}
      </div>

      {resumeTo !== null ? (
        <div className={styles.resume}>
          <p role="status">You were reading page {resumeTo} last time.</p>
          <div className={styles.resumeActions}>
            <Button onClick={() => settleResume(resumeTo)}>Continue from page {resumeTo}</Button>
            <Button variant="outline" onClick={() => settleResume(null)}>
              Start from the beginning
            </Button>
          </div>
        </div>
      ) : null}

      <div className={styles.body} data-panel={open && !narrow ? 'open' : 'closed'}>
        {open ? (
          <Frame
            key={`${open.id}-${narrow ? 'drawer' : 'side'}`}
            id={panelElementId(viewerId, open.id)}
            label={open.label}
            onClose={closePanel}
          >
            <Rendered render={open.content} context={context} />
          </Frame>
        ) : null}

        <div className={styles.column} data-width={preferences.lineWidth}>
          <p className={styles.chapter}>
            {chapter ? (
              <>
                <span className="visually-hidden">Chapter: </span>
                {chapter.title}
              </>
            ) : null}
          </p>
          <div
            ref={pageArea}
            className={styles.page}
            data-theme={preferences.theme}
            data-size={preferences.textSize}
            tabIndex={-1}
            aria-label={`Page ${page} of ${pageCount}`}
            role="region"
            // Not a live region: the highlight toolbar and note box live in it and would be read
            // out as they change. The pager's "Page x of y" announces a new page.
            aria-busy={text.isFetching}
            {...swipe}
          >
            {text.isError ? (
              <p role="alert">No content available for this book.</p>
            ) : text.data ? (
              renderPage({ itemId: item.id, page: text.data.page, text: text.data.content, words })
            ) : (
              <p role="status">Loading…</p>
            )}
          </div>
          <Pager
            page={page}
            count={pageCount}
            onChange={(target) => goTo(target, words)}
            label="Book pages"
          />
        </div>
      </div>
    </div>
  );
}
