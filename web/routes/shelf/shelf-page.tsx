import { type FormEvent, useId, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { READING_LIST_NAME_MAX } from '#contract/http/shelf.ts';
import { ROUTES } from '#contract/routes.ts';
import { ApiError } from '../../api/client.ts';
import { useCreateList, useReadingLists, useSavedItems, useSetSaved } from '../../api/shelf.ts';
import { ItemCard, ItemCardBadge } from '../../components/catalogue/item-card.tsx';
import { formStyles } from '../../components/forms/fields.tsx';
import { PageHeader, pageStyles } from '../../components/page/page-header.tsx';
import { itemDetailPath } from '../../components/shelf/item-path.ts';
import { Button } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { ReadingListPanel } from './reading-list-panel.tsx';
import styles from './shelf.module.css';

const failureOf = (error: unknown) =>
  error instanceof ApiError ? error.message : 'That did not work. Please try again.';

/** The saved items as cards, newest first, each with Remove. */
function SavedItems() {
  const saved = useSavedItems();
  const setSaved = useSetSaved();
  const [said, setSaid] = useState('');
  const [failure, setFailure] = useState('');

  let content;
  if (saved.isPending) {
    content = <p role="status">Loading your saved items…</p>;
  } else if (saved.isError) {
    content = <p role="alert">Your saved items could not be loaded. {failureOf(saved.error)}</p>;
  } else if (saved.data.length === 0) {
    content = (
      <p className={styles.muted}>
        Nothing saved yet. Use “Save to my shelf” on a book, paper or course material in the{' '}
        <Link to={ROUTES.librarySearch}>library search</Link>.
      </p>
    );
  } else {
    content = (
      <ul className={styles.cards} aria-label="Saved items, newest first">
        {saved.data.map((item) => (
          <li key={item.id} className={styles.savedItem}>
            <ItemCard item={item} size="compact" to={itemDetailPath(item.id)}>
              {item.withdrawn ? <ItemCardBadge>No longer in the catalogue</ItemCardBadge> : null}
            </ItemCard>
            <Button
              variant="ghost"
              className={styles.remove}
              disabled={setSaved.isPending}
              aria-label={`Remove “${item.title}” from your shelf`}
              onClick={() => {
                setFailure('');
                setSaved.mutate(
                  { itemId: item.id, saved: false },
                  {
                    onSuccess: () => setSaid(`Removed “${item.title}” from your shelf.`),
                    onError: (error) => setFailure(failureOf(error)),
                  },
                );
              }}
            >
              Remove
            </Button>
          </li>
        ))}
      </ul>
    );
  }

  return (
    <section className={styles.section} aria-labelledby="saved-heading">
      <h2 id="saved-heading">Saved items</h2>
      <p role="status" className={styles.said}>
        {said}
      </p>
      {failure ? (
        <p role="alert" className={styles.failure}>
          {failure}
        </p>
      ) : null}
      {content}
    </section>
  );
}

/** The reading lists: make one, choose one, and the chosen one's panel. */
function ReadingLists() {
  const lists = useReadingLists();
  const saved = useSavedItems();
  const create = useCreateList();
  const [params, setParams] = useSearchParams();
  const [name, setName] = useState('');
  const [failure, setFailure] = useState('');
  const [said, setSaid] = useState('');
  const nameId = useId();

  const choose = (id: string | null) =>
    setParams(
      (current) => {
        const next = new URLSearchParams(current);
        if (id) next.set('list', id);
        else next.delete('list');
        return next;
      },
      { replace: true },
    );

  const chosenParam = params.get('list');
  const chosen =
    lists.data?.find((list) => list.id === chosenParam)?.id ?? lists.data?.[0]?.id ?? null;

  const createList = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    setSaid('');
    if (trimmed === '') {
      setFailure('Give the list a name.');
      return;
    }
    setFailure('');
    create.mutate(
      { name: trimmed },
      {
        onSuccess: (list) => {
          setName('');
          setSaid(`Made the list “${list.name}”.`);
          choose(list.id);
        },
        onError: (error) => setFailure(failureOf(error)),
      },
    );
  };

  return (
    <section className={styles.section} aria-labelledby="lists-heading">
      <h2 id="lists-heading">Reading lists</h2>
      <form className={styles.createForm} onSubmit={createList}>
        <label htmlFor={nameId} className={formStyles.label}>
          New list name
        </label>
        <div className={styles.row}>
          <input
            id={nameId}
            className={`${formStyles.input} ${styles.grow}`}
            value={name}
            maxLength={READING_LIST_NAME_MAX}
            aria-invalid={failure ? true : undefined}
            onChange={(event) => setName(event.target.value)}
          />
          <Button type="submit" disabled={create.isPending}>
            Create list
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
      {lists.isPending ? (
        <p role="status">Loading your lists…</p>
      ) : lists.isError ? (
        <p role="alert">Your lists could not be loaded. {failureOf(lists.error)}</p>
      ) : lists.data.length === 0 ? (
        <p className={styles.muted}>
          No reading lists yet. Make one for a course or a topic, put it in order, and share it with
          classmates by its link.
        </p>
      ) : (
        <div className={styles.listsLayout}>
          <nav aria-label="Your reading lists">
            <ul className={styles.listChooser}>
              {lists.data.map((list) => (
                <li key={list.id}>
                  <button
                    type="button"
                    className={styles.chooserButton}
                    aria-current={list.id === chosen ? 'true' : undefined}
                    onClick={() => choose(list.id)}
                  >
                    <span className={styles.chooserName}>{list.name}</span>
                    <span className={styles.muted}>
                      {list.itemCount} {list.itemCount === 1 ? 'item' : 'items'}
                      {list.shared ? ' · shared' : ''}
                    </span>
                  </button>
                </li>
              ))}
            </ul>
          </nav>
          {chosen ? (
            <ReadingListPanel
              key={chosen}
              listId={chosen}
              saved={saved.data ?? []}
              onDeleted={() => {
                setSaid('The list was deleted.');
                choose(null);
              }}
            />
          ) : null}
        </div>
      )}
    </section>
  );
}

/**
 * `/shelf` ("My shelf", issue 24): the items the person saved, and their reading lists, each
 * ordered by hand and private unless shared read-only by its link.
 */
export function ShelfPage() {
  useDocumentTitle('My shelf');
  return (
    <div className={`container ${pageStyles.screen}`}>
      <PageHeader
        title="My shelf"
        lead="The books, papers and course materials you saved, and your reading lists. Share a list by its link: classmates can read it, never change it."
      />
      <SavedItems />
      <ReadingLists />
    </div>
  );
}
