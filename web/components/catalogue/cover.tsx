import { useState } from 'react';
import { webAddress } from '../links/web-address.ts';
import styles from './cover.module.css';

/** The sizes a cover is shown at, in CSS pixels: set on the image so nothing moves as it loads. */
const SIZES = {
  small: { width: 64, height: 96 },
  medium: { width: 80, height: 120 },
  large: { width: 128, height: 192 },
} as const;

/** How many colours generated covers come in (`cover.module.css` names each). */
export const COVER_COLOURS = 12;

/**
 * The colour of a title's generated cover, 0 to {@link COVER_COLOURS} - 1: the same title always
 * gets the same one. A class, not a style attribute: the screens set no inline styles.
 */
export function coverColour(title: string): number {
  let hash = 0;
  for (const char of title.trim().toLowerCase()) {
    hash = (Math.imul(hash, 31) + char.codePointAt(0)!) | 0;
  }
  return Math.abs(hash) % COVER_COLOURS;
}

/**
 * An item's cover: its image when it has one at a web address and the image loads, lazily and at
 * a fixed size; otherwise a generated cover, the title and author on a colour derived from the
 * title. The title is always shown beside a cover, so the generated one is decoration, and the
 * image says only what `alt` says (nothing by default).
 */
export function Cover({
  title,
  authors,
  url,
  size = 'small',
  alt = '',
  className,
}: {
  title: string;
  authors: readonly string[] | string;
  url: string | null | undefined;
  size?: keyof typeof SIZES;
  alt?: string;
  className?: string;
}) {
  // Covers come from imported files and outside sources: an image only from a web address.
  const src = webAddress(url);
  // The address whose image failed to load (React hears the error even from the cache).
  const [failed, setFailed] = useState<string | null>(null);
  const classes = [styles.cover, styles[size], className].filter(Boolean).join(' ');

  if (src && failed !== src) {
    return (
      <img
        className={classes}
        src={src}
        alt={alt}
        {...SIZES[size]}
        loading="lazy"
        decoding="async"
        onError={() => setFailed(src)}
      />
    );
  }
  const author = typeof authors === 'string' ? authors : authors.join(', ');
  return (
    <span
      className={`${classes} ${styles.generated}`}
      data-colour={coverColour(title)}
      aria-hidden="true"
      data-generated-cover=""
    >
      <span className={styles.title}>{title}</span>
      {author ? <span className={styles.author}>{author}</span> : null}
    </span>
  );
}
