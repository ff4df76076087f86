import { useSetBookmark } from '../../api/highlights.ts';
import { useReadingState } from '../../api/reading.ts';
import { Button } from '../ui/button.tsx';
import { failureText } from './notes-panel.tsx';
import styles from './reading.module.css';

/**
 * "Bookmark this page" / "Remove bookmark" for the page on screen: a toggle button
 * (`aria-pressed`) over the reader's bookmarks in the book's reading state.
 */
export function BookmarkToggle({ itemId, page }: { itemId: string; page: number }) {
  const reading = useReadingState(itemId, true);
  const setBookmark = useSetBookmark(itemId);
  const bookmarked = reading.data?.bookmarks.some((mark) => mark.page === page) ?? false;
  // While the change is on its way, the button already shows what was asked.
  const shown =
    setBookmark.isPending && setBookmark.variables.page === page
      ? setBookmark.variables.bookmarked
      : bookmarked;
  return (
    <span className={styles.bookmark}>
      <Button
        variant={shown ? 'primary' : 'outline'}
        aria-pressed={shown}
        disabled={reading.isPending}
        // Not disabled while saving: that would drop the keyboard focus from the button.
        aria-disabled={setBookmark.isPending || undefined}
        onClick={() => {
          if (!setBookmark.isPending) setBookmark.mutate({ page, bookmarked: !bookmarked });
        }}
      >
        <span aria-hidden="true">{shown ? '★' : '☆'}</span>
        {shown ? 'Remove bookmark' : 'Bookmark this page'}
      </Button>
      {setBookmark.isError ? (
        <span role="alert" className={styles.error}>
          {failureText(setBookmark.error, 'The bookmark could not be saved. Try again.')}
        </span>
      ) : null}
    </span>
  );
}
