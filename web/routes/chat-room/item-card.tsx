import { useMemo } from 'react';
import { Link } from 'react-router';
import { availabilityText, extractItemIds, queueText } from '#contract/http/item-cards.ts';
import { useItemCard, useWatchItem } from '../../api/item-cards.ts';
import { Cover } from '../../components/catalogue/cover.tsx';
import { ReserveCopyLink } from '../../components/catalogue/shelf.tsx';
import { itemDetailPath } from '../../components/shelf/item-path.ts';
import styles from './item-card.module.css';

/** This app's own origin: absolute links to it become cards, links to other sites do not. */
const ownOrigins = () => (typeof window === 'undefined' ? [] : [window.location.origin]);

/**
 * One catalogue item as a chat card (decision 045): cover, title, authors, its availability now
 * (kept live by the socket while the card is shown) and Reserve or Join the waiting list.
 */
export function ItemChatCard({ itemId }: { itemId: string }) {
  const card = useItemCard(itemId);
  useWatchItem(itemId);
  if (card.isPending) {
    return (
      <div className={styles.card} aria-busy="true">
        <p className={styles.gone}>Loading the catalogue item…</p>
      </div>
    );
  }
  if (card.isError || !card.data) {
    return (
      <div className={styles.card}>
        <p className={styles.gone}>
          {card.isError
            ? 'This catalogue item could not be loaded.'
            : 'This item is no longer in the catalogue.'}
        </p>
      </div>
    );
  }
  const item = card.data;
  const { availability } = item;
  const queue = queueText(availability);
  return (
    <article className={styles.card} aria-label={item.title} data-item-card={item.id}>
      <Cover title={item.title} authors={item.authors} url={item.coverUrl} size="small" />
      <div className={styles.text}>
        <Link className={styles.title} to={itemDetailPath(item.id)}>
          {item.title}
        </Link>
        {item.authors.length > 0 ? <p className={styles.meta}>{item.authors.join(', ')}</p> : null}
        <p className={styles.availability} data-availability>
          {availabilityText(availability)}
          {queue ? ` · ${queue}` : ''}
        </p>
        {availability.total > 0 ? (
          <div className={styles.actions}>
            <ReserveCopyLink
              itemId={item.id}
              title={item.title}
              shelf={{
                total: availability.total,
                available: availability.available,
                locations: [],
              }}
            />
          </div>
        ) : null}
      </div>
    </article>
  );
}

/** The cards of the catalogue items a message links to (at most three), under its text. */
export function MessageItemCards({ content }: { content: string }) {
  const ids = useMemo(() => extractItemIds(content, ownOrigins()), [content]);
  if (ids.length === 0) return null;
  return (
    <ul className={styles.cards} aria-label="Catalogue items in this message">
      {ids.map((id) => (
        <li key={id}>
          <ItemChatCard itemId={id} />
        </li>
      ))}
    </ul>
  );
}

/** The item a room is tied to ("Discuss this book"), shown under the room's header. */
export function RoomItemCard({ itemId }: { itemId: string }) {
  return (
    <section className={styles.roomItem} aria-label="The item this room discusses">
      <p className={styles.roomItemLabel}>This room discusses:</p>
      <ItemChatCard itemId={itemId} />
    </section>
  );
}
