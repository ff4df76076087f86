import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { useItem } from '../../api/catalogue.ts';
import { Cover } from '../../components/catalogue/cover.tsx';
import { MoreLikeThis } from '../../components/catalogue/more-like-this.tsx';
import { ReserveCopyLink, shelfPlaces, shelfText } from '../../components/catalogue/shelf.tsx';
import { ItemChatActions } from '../../components/catalogue/share-to-room.tsx';
import type { TextRange } from '../../components/catalogue/page-text.tsx';
import { AnnotatedPage } from '../../components/reading/annotated-page.tsx';
import { BookViewer } from '../../components/reading/book-viewer.tsx';
import { BookmarkToggle } from '../../components/reading/bookmark-toggle.tsx';
import { NotesPanel } from '../../components/reading/notes-panel.tsx';
import { ReadAloud } from '../../components/reading/read-aloud.tsx';
import { ShelfControls } from '../../components/shelf/shelf-controls.tsx';
import { Button } from '../../components/ui/button.tsx';
import styles from './library.module.css';

/**
 * A selected result: its details, and its held text in the book viewer ('Page x of y'), on the
 * page the address names (`page`, null when it names none).
 */
export function BookDetail({
  id,
  onBack,
  page,
  onPageChange,
}: {
  id: string;
  onBack: () => void;
  page: number | null;
  onPageChange: (page: number, options?: { replace?: boolean }) => void;
}) {
  const item = useItem(id);
  const hasContent = item.data?.hasContent === true;
  // The sentence "Listen" is reading, marked on the page.
  const [speaking, setSpeaking] = useState<TextRange | null>(null);

  return (
    <section className={styles.detail} aria-labelledby="detail-title">
      <div>
        <Button variant="ghost" onClick={onBack}>
          ← Back to results
        </Button>
      </div>
      {item.isPending ? (
        <p role="status">Loading…</p>
      ) : item.isError ? (
        <p role="alert">
          {item.error instanceof ApiError && item.error.status === 404
            ? 'This item is no longer in the catalogue.'
            : 'There was an error fetching the data.'}
        </p>
      ) : (
        <>
          <div className={styles.detailHead}>
            <Cover
              title={item.data.title}
              authors={item.data.authors}
              url={item.data.coverUrl}
              size="large"
            />
            <div>
              <h2 id="detail-title">{item.data.title}</h2>
              <p className={styles.meta}>
                {[
                  item.data.authors.join(', '),
                  item.data.year,
                  item.data.isbn ? `ISBN ${item.data.isbn}` : null,
                ]
                  .filter(Boolean)
                  .join(' · ')}
              </p>
              {item.data.description ? <p>{item.data.description}</p> : null}
              <ShelfControls itemId={item.data.id} title={item.data.title} />
              <ItemChatActions
                itemId={item.data.id}
                title={item.data.title}
                type={item.data.type}
              />
            </div>
          </div>
          {item.data.shelf ? (
            <div className={styles.detailShelf}>
              <p>
                <strong>On the shelves:</strong> {shelfText(item.data.shelf)}.
                {item.data.shelf.locations.length > 0
                  ? ` Where: ${shelfPlaces(item.data.shelf)}.`
                  : ''}
              </p>
              <ReserveCopyLink
                itemId={item.data.id}
                title={item.data.title}
                shelf={item.data.shelf}
              />
            </div>
          ) : null}
          {hasContent ? (
            <BookViewer
              item={item.data}
              page={page}
              onPageChange={onPageChange}
              renderPage={(props) => <AnnotatedPage {...props} speaking={speaking} />}
              tools={(context) => (
                <>
                  <BookmarkToggle itemId={context.itemId} page={context.page} />
                  <ReadAloud
                    // '' while the next page loads: reading waits for it instead of ending.
                    text={context.content ?? ''}
                    onSpeaking={setSpeaking}
                    onFinished={() => {
                      if (context.page < context.pageCount) context.goTo(context.page + 1);
                    }}
                  />
                </>
              )}
              extraPanels={[
                {
                  id: 'notes',
                  label: 'My notes',
                  content: (context) => (
                    <NotesPanel
                      itemId={context.itemId}
                      title={item.data.title}
                      heading={false}
                      onJump={(target) => context.goTo(target)}
                    />
                  ),
                },
              ]}
            />
          ) : (
            <p className={styles.status}>No content available for this book.</p>
          )}
          <MoreLikeThis itemId={item.data.id} heading="h3" />
        </>
      )}
    </section>
  );
}
