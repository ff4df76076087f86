import { useState } from 'react';
import { ApiError } from '../../api/client.ts';
import { useItem, useItemPage } from '../../api/catalogue.ts';
import { Cover } from '../../components/catalogue/cover.tsx';
import { MoreLikeThis } from '../../components/catalogue/more-like-this.tsx';
import { PageText } from '../../components/catalogue/page-text.tsx';
import { Pager } from '../../components/catalogue/pager.tsx';
import { ReserveCopyLink, shelfPlaces, shelfText } from '../../components/catalogue/shelf.tsx';
import { Button } from '../../components/ui/button.tsx';
import styles from './library.module.css';

/** A selected result: its details, and its held text page by page ('Page x of y'). */
export function BookDetail({ id, onBack }: { id: string; onBack: () => void }) {
  const item = useItem(id);
  const [page, setPage] = useState(1);
  const hasContent = item.data?.hasContent === true;
  const text = useItemPage(id, page, hasContent);

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
            <div>
              <div className={styles.viewer} aria-live="polite" aria-busy={text.isFetching}>
                {text.isError ? (
                  <p role="alert">No content available for this book.</p>
                ) : text.data ? (
                  <PageText text={text.data.content} />
                ) : (
                  <p role="status">Loading…</p>
                )}
              </div>
              <Pager
                page={page}
                count={item.data.pageCount}
                onChange={setPage}
                label="Book pages"
              />
            </div>
          ) : (
            <p className={styles.status}>No content available for this book.</p>
          )}
          <MoreLikeThis itemId={item.data.id} heading="h3" />
        </>
      )}
    </section>
  );
}
