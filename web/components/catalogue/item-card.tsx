import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { CatalogueItem } from '#contract/http/catalogue.ts';
import { Cover } from './cover.tsx';
import styles from './item-card.module.css';

/**
 * Where a card leads, one of: `to`, a screen of this app; `href`, a web page, opened in a new
 * tab; `onOpen`, an action on this screen; none, the card is not interactive.
 */
export type ItemCardTarget =
  | { to: string; href?: never; onOpen?: never }
  | { href: string; to?: never; onOpen?: never }
  | { onOpen: () => void; to?: never; href?: never }
  | { to?: never; href?: never; onOpen?: never };

/**
 * A catalogue item as a card, the same wherever items are listed (search results, "More like
 * this"): its cover beside its title, authors and year, then `children` (topics, shelf, badges).
 * The whole card is one link or button, so its name is everything it says.
 */
export function ItemCard({
  item,
  size = 'regular',
  className,
  children,
  ...target
}: {
  item: Pick<CatalogueItem, 'title' | 'authors' | 'year' | 'coverUrl'>;
  /** `compact` for a short list beside other content: less room around the words. */
  size?: 'regular' | 'compact';
  className?: string;
  children?: ReactNode;
} & ItemCardTarget) {
  const classes = [styles.card, className].filter(Boolean).join(' ');
  // The title is beside the cover, so the cover says nothing more to a screen reader.
  const content = (
    <>
      <Cover title={item.title} authors={item.authors} url={item.coverUrl} />
      <span className={styles.text}>
        <span className={styles.title}>{item.title}</span>
        <span className={styles.meta}>
          {item.authors.join(', ') || 'Unknown author'}
          {item.year !== null ? ` · ${item.year}` : ''}
        </span>
        {children}
      </span>
    </>
  );
  if (target.to !== undefined) {
    return (
      <Link className={classes} data-size={size} to={target.to}>
        {content}
      </Link>
    );
  }
  if (target.href !== undefined) {
    return (
      <a
        className={classes}
        data-size={size}
        href={target.href}
        target="_blank"
        rel="noopener noreferrer"
      >
        {content}
        <span className="visually-hidden"> (opens in a new tab)</span>
      </a>
    );
  }
  if (target.onOpen !== undefined) {
    return (
      <button type="button" className={classes} data-size={size} onClick={target.onOpen}>
        {content}
      </button>
    );
  }
  return (
    <div className={classes} data-size={size}>
      {content}
    </div>
  );
}

/** A short label on a card ("Read online", "From Open Library", why an item is related). */
export function ItemCardBadge({ children }: { children: ReactNode }) {
  return <span className={styles.badge}>{children}</span>;
}
