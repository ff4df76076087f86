import { type FormEvent, useId, useState } from 'react';
import { Link } from 'react-router';
import { READING_LIST_NAME_MAX } from '#contract/http/shelf.ts';
import { ROUTES } from '#contract/routes.ts';
import { ApiError } from '../../api/client.ts';
import { useCurrentUser } from '../../api/session.ts';
import {
  useAddToList,
  useCreateList,
  useReadingLists,
  useSavedItems,
  useSetSaved,
} from '../../api/shelf.ts';
import { formStyles } from '../forms/fields.tsx';
import { Button } from '../ui/button.tsx';
import { Dialog } from '../ui/dialog.tsx';
import styles from './shelf.module.css';

const failureOf = (error: unknown) =>
  error instanceof ApiError ? error.message : 'That did not work. Please try again.';

/**
 * "Save to my shelf" / "Saved": saves a catalogue item, or takes it off again. The title is in
 * the button's name after its visible words, so a list of cards has one distinct button per card.
 */
export function SaveToShelfButton({ itemId, title }: { itemId: string; title: string }) {
  const saved = useSavedItems();
  const setSaved = useSetSaved();
  const [failure, setFailure] = useState('');
  const isSaved = saved.data?.some((item) => item.id === itemId) ?? false;
  const toggle = () => {
    setFailure('');
    setSaved.mutate(
      { itemId, saved: !isSaved },
      { onError: (error) => setFailure(failureOf(error)) },
    );
  };
  return (
    <>
      <Button
        variant={isSaved ? 'primary' : 'outline'}
        className={styles.control}
        aria-pressed={isSaved}
        disabled={saved.isPending || setSaved.isPending}
        onClick={toggle}
        aria-label={`${isSaved ? 'Saved' : 'Save to my shelf'}: ${title}`}
      >
        {isSaved ? 'Saved' : 'Save to my shelf'}
      </Button>
      {failure ? (
        <span role="alert" className={styles.failure}>
          {failure}
        </span>
      ) : null}
    </>
  );
}

/**
 * "Add to list…": a dialog with the person's reading lists, each a button that appends the item
 * to it, and a field to make a new list with the item in it.
 */
export function AddToListButton({ itemId, title }: { itemId: string; title: string }) {
  const [open, setOpen] = useState(false);
  const [said, setSaid] = useState('');
  const [failure, setFailure] = useState('');
  const [name, setName] = useState('');
  const lists = useReadingLists(open);
  const add = useAddToList();
  const create = useCreateList();
  const nameId = useId();

  const addTo = (listId: string, listName: string) => {
    setSaid('');
    setFailure('');
    add.mutate(
      { listId, itemId },
      {
        onSuccess: () => setSaid(`Added to “${listName}”.`),
        onError: (error) =>
          error instanceof ApiError && error.status === 409
            ? setSaid(`Already in “${listName}”.`)
            : setFailure(failureOf(error)),
      },
    );
  };

  const createAndAdd = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed === '') {
      setFailure('Give the new list a name.');
      return;
    }
    setSaid('');
    setFailure('');
    create.mutate(
      { name: trimmed },
      {
        onSuccess: (list) => {
          setName('');
          addTo(list.id, list.name);
        },
        onError: (error) => setFailure(failureOf(error)),
      },
    );
  };

  const close = () => {
    setOpen(false);
    setSaid('');
    setFailure('');
  };

  return (
    <>
      <Button
        variant="outline"
        className={styles.control}
        aria-haspopup="dialog"
        onClick={() => setOpen(true)}
        aria-label={`Add to list…: ${title}`}
      >
        Add to list…
      </Button>
      <Dialog
        open={open}
        title={`Add “${title}” to a reading list`}
        onClose={close}
        actions={
          <Button variant="outline" data-autofocus onClick={close}>
            Done
          </Button>
        }
      >
        {lists.isPending ? (
          <p role="status">Loading your lists…</p>
        ) : lists.isError ? (
          <p role="alert">Your lists could not be loaded. {failureOf(lists.error)}</p>
        ) : lists.data.length === 0 ? (
          <p>You have no reading lists yet. Make one below.</p>
        ) : (
          <ul className={styles.dialogLists} aria-label="Your reading lists">
            {lists.data.map((list) => (
              <li key={list.id}>
                <Button
                  variant="ghost"
                  disabled={add.isPending}
                  onClick={() => addTo(list.id, list.name)}
                >
                  Add to “{list.name}”
                </Button>
                <span className={styles.muted}>
                  {list.itemCount} {list.itemCount === 1 ? 'item' : 'items'}
                </span>
              </li>
            ))}
          </ul>
        )}
        <form className={styles.inlineForm} onSubmit={createAndAdd}>
          <label htmlFor={nameId} className={formStyles.label}>
            New list
          </label>
          <input
            id={nameId}
            className={formStyles.input}
            value={name}
            maxLength={READING_LIST_NAME_MAX}
            onChange={(event) => setName(event.target.value)}
          />
          <Button type="submit" variant="outline" disabled={create.isPending}>
            Create and add
          </Button>
        </form>
        <p role="status" className={styles.said}>
          {said}
        </p>
        {failure ? (
          <p role="alert" className={styles.failure}>
            {failure}
          </p>
        ) : null}
        <p className={styles.muted}>
          See and order your lists on <Link to={ROUTES.shelf}>My shelf</Link>.
        </p>
      </Dialog>
    </>
  );
}

/**
 * Both shelf controls of a catalogue item, for signed-in people only. Clicks stay inside, so a
 * card that opens something on click (a course material) does not open it too.
 */
export function ShelfControls({ itemId, title }: { itemId: string; title: string }) {
  const user = useCurrentUser();
  if (!user.data) return null;
  return (
    // A wrapper that only stops clicks from reaching the card: the buttons inside take the keys.
    <div className={styles.controls} onClick={(event) => event.stopPropagation()}>
      <SaveToShelfButton itemId={itemId} title={title} />
      <AddToListButton itemId={itemId} title={title} />
    </div>
  );
}
