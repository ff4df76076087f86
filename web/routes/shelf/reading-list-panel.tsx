import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import {
  READING_LIST_DESCRIPTION_MAX,
  READING_LIST_NAME_MAX,
  type SavedItem,
} from '#contract/http/shelf.ts';
import { sharedListPath } from '#contract/routes.ts';
import { ApiError } from '../../api/client.ts';
import {
  useAddToList,
  useDeleteList,
  useReadingList,
  useRemoveFromList,
  useReorderList,
  useUpdateList,
} from '../../api/shelf.ts';
import { ItemCard, ItemCardBadge } from '../../components/catalogue/item-card.tsx';
import { formStyles } from '../../components/forms/fields.tsx';
import { Button } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { itemDetailPath } from '../../components/shelf/item-path.ts';
import styles from './shelf.module.css';

const failureOf = (error: unknown) =>
  error instanceof ApiError ? error.message : 'That did not work. Please try again.';

/** Where the focus goes once a move has been saved: the same button of the item that moved. */
interface FocusAfterMove {
  itemId: string;
  direction: 'up' | 'down';
}

/**
 * One of the person's reading lists: rename, describe, share by link (with Copy link), delete
 * (after asking), add items from the shelf, reorder with Move up / Move down, remove items.
 */
export function ReadingListPanel({
  listId,
  saved,
  onDeleted,
}: {
  listId: string;
  /** The person's saved items: what can be added from here. */
  saved: readonly SavedItem[];
  onDeleted: () => void;
}) {
  const list = useReadingList(listId);
  const update = useUpdateList();
  const remove = useDeleteList();
  const add = useAddToList();
  const takeOut = useRemoveFromList();
  const reorder = useReorderList();
  const [said, setSaid] = useState('');
  const [failure, setFailure] = useState('');
  const [renaming, setRenaming] = useState(false);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const [toAdd, setToAdd] = useState('');
  const focusAfter = useRef<FocusAfterMove | null>(null);
  const itemsRef = useRef<HTMLOListElement>(null);
  const headingId = useId();
  const addId = useId();
  const linkId = useId();

  // After a move is saved, the focus follows the item to its new place, on the button pressed
  // (or its other one, at either end of the list), so Move up can be pressed again and again.
  const order = list.data?.items.map((item) => item.id).join(' ');
  useEffect(() => {
    const target = focusAfter.current;
    if (!target || !itemsRef.current) return;
    focusAfter.current = null;
    const find = (direction: string) =>
      itemsRef.current?.querySelector<HTMLButtonElement>(
        `button[data-item="${target.itemId}"][data-move="${direction}"]:not(:disabled)`,
      );
    (find(target.direction) ?? find(target.direction === 'up' ? 'down' : 'up'))?.focus();
  }, [order]);

  if (list.isPending) return <p role="status">Loading the list…</p>;
  if (list.isError) {
    return <p role="alert">This list could not be loaded. {failureOf(list.error)}</p>;
  }
  const data = list.data;
  const busy = update.isPending || reorder.isPending || takeOut.isPending || add.isPending;
  const inList = new Set(data.items.map((item) => item.id));
  const addable = saved.filter((item) => !inList.has(item.id) && !item.withdrawn);
  const shareUrl = data.shareToken
    ? `${window.location.origin}${sharedListPath(data.shareToken)}`
    : null;

  const report = (message: string) => {
    setFailure('');
    setSaid(message);
  };
  const fail = (error: unknown) => {
    setSaid('');
    setFailure(failureOf(error));
  };

  const move = (index: number, direction: 'up' | 'down') => {
    const other = direction === 'up' ? index - 1 : index + 1;
    const ids = data.items.map((item) => item.id);
    const moved = data.items[index];
    // One move at a time: the next is computed from the order the server answered.
    if (!moved || other < 0 || other >= ids.length || reorder.isPending) return;
    [ids[index], ids[other]] = [ids[other]!, ids[index]!];
    // Set before the answer re-renders the list, so the effect finds it whatever runs first.
    focusAfter.current = { itemId: moved.id, direction };
    reorder.mutate(
      { listId, itemIds: ids },
      {
        onSuccess: () =>
          report(`Moved “${moved.title}” ${direction}: now ${other + 1} of ${ids.length}.`),
        onError: (error) => {
          focusAfter.current = null;
          fail(error);
        },
      },
    );
  };

  const rename = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    update.mutate(
      {
        id: listId,
        name: String(form.get('name') ?? ''),
        description: String(form.get('description') ?? ''),
      },
      {
        onSuccess: (changed) => {
          setRenaming(false);
          report(`Saved “${changed.name}”.`);
        },
        onError: fail,
      },
    );
  };

  const setShared = (shared: boolean) =>
    update.mutate(
      { id: listId, shared },
      {
        onSuccess: () =>
          report(
            shared
              ? 'Shared: anyone signed in with the link can read this list.'
              : 'Sharing is off: the old link no longer works.',
          ),
        onError: fail,
      },
    );

  const copyLink = async () => {
    if (!shareUrl) return;
    try {
      await navigator.clipboard.writeText(shareUrl);
      report('Link copied.');
    } catch {
      // No clipboard (an old browser, a denied permission): the link is selected to copy by hand.
      document.getElementById(linkId)?.focus();
      report('Copy the selected link with your keyboard or menu.');
    }
  };

  const addSaved = (event: FormEvent) => {
    event.preventDefault();
    const item = addable.find((candidate) => candidate.id === toAdd);
    if (!item) return;
    add.mutate(
      { listId, itemId: item.id },
      {
        onSuccess: () => {
          setToAdd('');
          report(`Added “${item.title}”.`);
        },
        onError: fail,
      },
    );
  };

  return (
    <section className={styles.panel} aria-labelledby={headingId}>
      <div className={styles.panelHead}>
        <h3 id={headingId} className={styles.listName}>
          {data.name}
        </h3>
        <div className={styles.panelActions}>
          <Button variant="outline" onClick={() => setRenaming(!renaming)} aria-expanded={renaming}>
            Rename
          </Button>
          <Button variant="danger" onClick={() => setConfirmDelete(true)}>
            Delete list
          </Button>
        </div>
      </div>
      {data.description ? <p className={styles.description}>{data.description}</p> : null}

      {renaming ? (
        <form className={styles.renameForm} onSubmit={rename}>
          <label className={formStyles.field}>
            <span className={formStyles.label}>Name</span>
            <input
              name="name"
              className={formStyles.input}
              defaultValue={data.name}
              required
              maxLength={READING_LIST_NAME_MAX}
            />
          </label>
          <label className={formStyles.field}>
            <span className={formStyles.label}>Description (optional)</span>
            <textarea
              name="description"
              className={formStyles.input}
              defaultValue={data.description}
              rows={2}
              maxLength={READING_LIST_DESCRIPTION_MAX}
            />
          </label>
          <div className={styles.row}>
            <Button type="submit" disabled={update.isPending}>
              Save
            </Button>
            <Button variant="ghost" onClick={() => setRenaming(false)}>
              Cancel
            </Button>
          </div>
        </form>
      ) : null}

      <div className={styles.share}>
        {shareUrl ? (
          <>
            <label htmlFor={linkId} className={formStyles.label}>
              Link to share (read-only for classmates who are signed in)
            </label>
            <div className={styles.row}>
              <input
                id={linkId}
                className={`${formStyles.input} ${styles.link}`}
                value={shareUrl}
                readOnly
                onFocus={(event) => event.currentTarget.select()}
              />
              <Button variant="outline" onClick={() => void copyLink()}>
                Copy link
              </Button>
              <Button variant="ghost" disabled={busy} onClick={() => setShared(false)}>
                Stop sharing
              </Button>
            </div>
          </>
        ) : (
          <div className={styles.row}>
            <p className={styles.muted}>Private: only you can see this list.</p>
            <Button variant="outline" disabled={busy} onClick={() => setShared(true)}>
              Share by link
            </Button>
          </div>
        )}
      </div>

      <form className={styles.addForm} onSubmit={addSaved}>
        <label htmlFor={addId} className={formStyles.label}>
          Add a saved item
        </label>
        <div className={styles.row}>
          <select
            id={addId}
            className={`${formStyles.input} ${styles.select}`}
            value={toAdd}
            onChange={(event) => setToAdd(event.target.value)}
            disabled={addable.length === 0}
          >
            <option value="">
              {addable.length === 0
                ? saved.length === 0
                  ? 'Save items first'
                  : 'Every saved item is in this list'
                : 'Choose one of your saved items'}
            </option>
            {addable.map((item) => (
              <option key={item.id} value={item.id}>
                {item.title}
              </option>
            ))}
          </select>
          <Button type="submit" variant="outline" disabled={toAdd === '' || busy}>
            Add to list
          </Button>
        </div>
      </form>

      <p role="status" className={styles.said}>
        {said}
      </p>
      {failure ? (
        <p role="alert" className={styles.failure}>
          {failure}
        </p>
      ) : null}

      {data.items.length === 0 ? (
        <p className={styles.muted}>
          This list is empty. Add items you saved, or use “Add to list…” on a book in the library
          search.
        </p>
      ) : (
        <ol ref={itemsRef} className={styles.listItems} aria-label={`${data.name}, in order`}>
          {data.items.map((item, index) => (
            <li key={item.id} className={styles.listItem}>
              <span className={styles.position} aria-hidden="true">
                {index + 1}
              </span>
              <ItemCard item={item} size="compact" to={itemDetailPath(item.id)}>
                {item.withdrawn ? <ItemCardBadge>No longer in the catalogue</ItemCardBadge> : null}
              </ItemCard>
              <div className={styles.itemActions}>
                <Button
                  variant="outline"
                  data-item={item.id}
                  data-move="up"
                  disabled={index === 0}
                  onClick={() => move(index, 'up')}
                  aria-label={`Move up: ${item.title}`}
                >
                  Move up
                </Button>
                <Button
                  variant="outline"
                  data-item={item.id}
                  data-move="down"
                  disabled={index === data.items.length - 1}
                  onClick={() => move(index, 'down')}
                  aria-label={`Move down: ${item.title}`}
                >
                  Move down
                </Button>
                <Button
                  variant="ghost"
                  disabled={busy}
                  aria-label={`Remove “${item.title}” from the list`}
                  onClick={() =>
                    takeOut.mutate(
                      { listId, itemId: item.id },
                      { onSuccess: () => report(`Removed “${item.title}”.`), onError: fail },
                    )
                  }
                >
                  Remove
                </Button>
              </div>
            </li>
          ))}
        </ol>
      )}

      <Dialog
        open={confirmDelete}
        alert
        title={`Delete “${data.name}”?`}
        onClose={() => setConfirmDelete(false)}
        actions={
          <>
            <Button variant="outline" data-autofocus onClick={() => setConfirmDelete(false)}>
              Keep it
            </Button>
            <Button
              variant="danger"
              disabled={remove.isPending}
              onClick={() =>
                remove.mutate(listId, {
                  onSuccess: () => {
                    setConfirmDelete(false);
                    onDeleted();
                  },
                  onError: (error) => {
                    setConfirmDelete(false);
                    fail(error);
                  },
                })
              }
            >
              Delete list
            </Button>
          </>
        }
      >
        <p>
          The list and its order go; the items stay in the catalogue and on your shelf.
          {data.shareToken ? ' Its shared link stops working.' : ''}
        </p>
      </Dialog>
    </section>
  );
}
