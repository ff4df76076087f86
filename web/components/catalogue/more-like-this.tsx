import type { RelatedItem } from '#contract/http/catalogue.ts';
import { ROUTES } from '#contract/routes.ts';
import { useRelatedItems } from '../../api/catalogue.ts';
import { ItemCard, ItemCardBadge } from './item-card.tsx';
import styles from './more-like-this.module.css';

/** How many placeholder cards hold the section's place while it loads. */
const PLACEHOLDERS = 3;

/**
 * "More like this" under an item: up to six related items as cards that open their details, each
 * with why it is listed. Placeholders of the cards' size hold its place while it loads; it is not
 * shown at all when nothing is related or the list could not be read.
 */
export function MoreLikeThis({
  itemId,
  heading: Heading = 'h2',
}: {
  itemId: string;
  /** The heading's level under the screen's own headings. */
  heading?: 'h2' | 'h3';
}) {
  const related = useRelatedItems(itemId);
  if (related.isError || (related.data && related.data.items.length === 0)) return null;
  const headingId = `more-like-this-${itemId}`;
  return (
    <section className={styles.section} aria-labelledby={headingId} aria-busy={related.isPending}>
      <Heading id={headingId} className={styles.heading}>
        More like this
      </Heading>
      {related.isPending ? (
        <>
          <p role="status" className="visually-hidden">
            Loading related items…
          </p>
          <ul className={styles.list} aria-hidden="true">
            {Array.from({ length: PLACEHOLDERS }, (_, index) => (
              <li key={index} className={styles.placeholder} />
            ))}
          </ul>
        </>
      ) : (
        <ul className={styles.list}>
          {related.data.items.map((item) => (
            <li key={item.id}>
              <RelatedCard item={item} />
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}

/** One related item: its card, with why it is listed. */
function RelatedCard({ item }: { item: RelatedItem }) {
  return (
    <ItemCard
      item={item}
      size="compact"
      className={styles.card}
      to={`${ROUTES.librarySearch}?item=${encodeURIComponent(item.id)}`}
    >
      <ItemCardBadge>{item.reason}</ItemCardBadge>
    </ItemCard>
  );
}
