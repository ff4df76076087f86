import { Link, useParams } from 'react-router';
import { ROUTES } from '#contract/routes.ts';
import { ApiError } from '../../api/client.ts';
import { useSharedList } from '../../api/shelf.ts';
import { ItemCard } from '../../components/catalogue/item-card.tsx';
import { PageHeader, pageStyles } from '../../components/page/page-header.tsx';
import { itemDetailPath } from '../../components/shelf/item-path.ts';
import { SaveToShelfButton } from '../../components/shelf/shelf-controls.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import styles from '../shelf/shelf.module.css';

/**
 * `/lists/shared/:token` (issue 24): a reading list someone shared by its link, read-only, for
 * anyone signed in; each item can be saved to one's own shelf.
 */
export function SharedListPage() {
  const { token = '' } = useParams();
  const list = useSharedList(token);
  useDocumentTitle(list.data ? list.data.name : 'Shared reading list');

  if (list.isPending) {
    return (
      <div className={`container ${pageStyles.screen}`}>
        <PageHeader title="Shared reading list" />
        <p role="status">Loading the list…</p>
      </div>
    );
  }
  if (list.isError) {
    const gone = list.error instanceof ApiError && list.error.status === 404;
    return (
      <div className={`container ${pageStyles.screen}`}>
        <PageHeader
          title={gone ? 'This list is not shared' : 'Shared reading list'}
          lead={
            gone
              ? 'Its owner stopped sharing it or deleted it, or the link was not copied whole. Ask them for the link again.'
              : undefined
          }
        />
        {gone ? null : (
          <p role="alert">
            The list could not be loaded.{' '}
            {list.error instanceof ApiError ? list.error.message : 'Please try again.'}
          </p>
        )}
        <p>
          <Link to={ROUTES.shelf}>Go to my shelf</Link>
        </p>
      </div>
    );
  }

  const data = list.data;
  return (
    <div className={`container ${pageStyles.screen}`}>
      <PageHeader
        eyebrow="Shared reading list"
        title={data.name}
        lead={data.description || undefined}
      />
      <p className={styles.owner}>
        {data.mine
          ? 'Your list, as classmates with the link see it. Change it on '
          : `Shared by ${data.ownerName}. Read-only: save what you need to `}
        <Link to={ROUTES.shelf}>{data.mine ? 'My shelf' : 'your own shelf'}</Link>.
      </p>
      <section className={styles.section} aria-labelledby="shared-items-heading">
        <h2 id="shared-items-heading">
          {data.items.length} {data.items.length === 1 ? 'item' : 'items'}
        </h2>
        {data.items.length === 0 ? (
          <p className={styles.muted}>This list has nothing in it yet.</p>
        ) : (
          <ol className={styles.listItems} aria-label={`${data.name}, in order`}>
            {data.items.map((item, index) => (
              <li key={item.id} className={styles.listItem}>
                <span className={styles.position} aria-hidden="true">
                  {index + 1}
                </span>
                <div className={styles.sharedItem}>
                  <ItemCard item={item} size="compact" to={itemDetailPath(item.id)} />
                  <div className={styles.sharedActions}>
                    <SaveToShelfButton itemId={item.id} title={item.title} />
                  </div>
                </div>
              </li>
            ))}
          </ol>
        )}
      </section>
    </div>
  );
}
