import { useEffect, useState } from 'react';
import { useLocation, useNavigate, useParams, useSearchParams } from 'react-router';
import type { ItemDetail } from '#contract/http/catalogue.ts';
import { catalogueItemPath, ROUTES } from '#contract/routes.ts';
import { useItem } from '../../api/catalogue.ts';
import { ApiError } from '../../api/client.ts';
import { useSetWithdrawn } from '../../api/items.ts';
import { FormMessage, formStyles } from '../../components/forms/fields.tsx';
import { PageHeader, pageStyles } from '../../components/page/page-header.tsx';
import { StatusBadge } from '../../components/records/status-badge.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { Dialog } from '../../components/ui/dialog.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import { CopiesSection } from './copies-section.tsx';
import styles from './desk-catalogue.module.css';
import { ItemForm } from './item-form.tsx';
import { ItemHistory } from './item-history.tsx';
import { ITEM_TYPE_LABELS } from './labels.ts';

/** What the catalogue hands an item screen it opens: the search to go back to. */
export interface CatalogueState {
  /** The catalogue's query string (`?q=…&page=2`) when the item was opened from a search. */
  search?: string;
  /** Set when the item was just added, to say so. */
  created?: string;
}

/** The catalogue search the item was opened from, if it was. */
function backLink(state: unknown): string {
  const search = (state as CatalogueState | null)?.search;
  return typeof search === 'string' && search.startsWith('?')
    ? `${ROUTES.deskCatalogue}${search}`
    : ROUTES.deskCatalogue;
}

/** `/desk/catalogue/:id`: one item's details, copies and history, for librarians. */
export function CatalogueItemPage() {
  const { id = '' } = useParams();
  const item = useItem(id);
  const location = useLocation();
  useDocumentTitle(item.data ? `${item.data.title} · Catalogue` : 'Catalogue item');
  const back = backLink(location.state);

  if (item.isPending) {
    return (
      <div className={`container ${pageStyles.screen}`}>
        <p role="status">Loading the item…</p>
      </div>
    );
  }
  if (item.isError) {
    const missing = item.error instanceof ApiError && item.error.status === 404;
    return (
      <div className={`container ${pageStyles.screen}`}>
        <PageHeader
          eyebrow="Catalogue"
          title={missing ? 'No such item' : 'The item could not be loaded'}
          lead={
            missing
              ? 'No item in the catalogue has this address. It may have been mistyped.'
              : `${item.error.message} Reload the page to try again.`
          }
          actions={
            <ButtonLink to={back} variant="outline">
              Back to the catalogue
            </ButtonLink>
          }
        />
      </div>
    );
  }
  // Keyed by the item, so moving to another item starts its form afresh.
  return <ItemScreen key={item.data.id} item={item.data} back={back} />;
}

function ItemScreen({ item, back }: { item: ItemDetail; back: string }) {
  const location = useLocation();
  const navigate = useNavigate();
  const created = (location.state as CatalogueState | null)?.created;
  const setWithdrawn = useSetWithdrawn(item.id);
  const [confirming, setConfirming] = useState(false);
  const [message, setMessage] = useState(
    created ? `Added “${created}” to the catalogue. You can add its copies below.` : '',
  );
  const [failure, setFailure] = useState('');
  const withdrawn = item.withdrawn === true;

  // Said once: a reload of the page later must not announce the item as just added.
  useEffect(() => {
    if (created)
      void navigate(location, { replace: true, state: { ...location.state, created: undefined } });
  }, [created, location, navigate]);

  const onConfirm = () => {
    setFailure('');
    setWithdrawn.mutate(!withdrawn, {
      onSuccess: (saved) => {
        setConfirming(false);
        setMessage(
          saved.withdrawn
            ? `“${saved.title}” is withdrawn: only librarians can find it now.`
            : `“${saved.title}” is restored: everyone can find it again.`,
        );
      },
      onError: (error) =>
        setFailure(
          error instanceof ApiError && error.fromServer
            ? error.message
            : 'The server could not be reached. Check your connection and try again.',
        ),
    });
  };

  const byline = [
    ITEM_TYPE_LABELS[item.type],
    item.authors.join(', ') || 'No author given',
    item.year ?? null,
    item.isbn ? `ISBN ${item.isbn}` : null,
  ].filter((part) => part !== null);

  return (
    <div className={`container ${pageStyles.screen}`}>
      <PageHeader
        eyebrow="Catalogue item"
        title={item.title}
        lead={byline.join(' · ')}
        actions={
          <>
            <ButtonLink to={back} variant="outline">
              Back to the catalogue
            </ButtonLink>
            <Button
              variant={withdrawn ? 'primary' : 'danger'}
              onClick={() => {
                setFailure('');
                setConfirming(true);
              }}
            >
              {withdrawn ? 'Restore this item' : 'Withdraw this item'}
            </Button>
          </>
        }
      />
      {withdrawn ? (
        <p className={`${pageStyles.notice} ${styles.notice}`}>
          <StatusBadge label="Withdrawn" tone="negative" /> Students and faculty cannot find or
          reserve this item. Its reservations and loans stay readable. Restore it to show it again.
        </p>
      ) : null}
      <p role="status" className={message ? `${formStyles.info} ${styles.notice}` : styles.quiet}>
        {message}
      </p>
      <div className={styles.itemLayout}>
        <div className={styles.itemMain}>
          <section className={styles.section} aria-labelledby="details-title">
            <h2 id="details-title" className={styles.sectionTitle}>
              Details
            </h2>
            <ItemForm item={item} />
          </section>
          <CopiesSection itemId={item.id} />
        </div>
        <ItemHistory itemId={item.id} />
      </div>
      <Dialog
        open={confirming}
        title={withdrawn ? `Restore “${item.title}”?` : `Withdraw “${item.title}”?`}
        onClose={() => setConfirming(false)}
        actions={
          <>
            <Button variant="outline" onClick={() => setConfirming(false)} data-autofocus>
              Cancel
            </Button>
            <Button
              variant={withdrawn ? 'primary' : 'danger'}
              onClick={onConfirm}
              disabled={setWithdrawn.isPending}
            >
              {setWithdrawn.isPending
                ? withdrawn
                  ? 'Restoring…'
                  : 'Withdrawing…'
                : withdrawn
                  ? 'Restore'
                  : 'Withdraw'}
            </Button>
          </>
        }
      >
        {withdrawn ? (
          <p>It shows in everyone’s searches again, and its copies on the shelf can be reserved.</p>
        ) : (
          <>
            <p>
              Students and faculty will no longer find it or reserve its copies. Reservations and
              loans already made stay readable.
            </p>
            <p>You can restore it at any time from this page.</p>
          </>
        )}
        <FormMessage>{failure ? `Nothing changed: ${failure}` : ''}</FormMessage>
      </Dialog>
    </div>
  );
}

/** `/desk/catalogue/new`: an empty item form; once added, the item's own screen opens. */
export function NewCatalogueItemPage() {
  useDocumentTitle('Add an item · Catalogue');
  const navigate = useNavigate();
  const location = useLocation();
  const back = backLink(location.state);
  // `?title=`: the library insights' "Add to catalogue" starts from a term nobody found.
  const [params] = useSearchParams();
  const initialTitle = (params.get('title') ?? '').trim().slice(0, 500);

  return (
    <div className={`container ${pageStyles.screen}`}>
      <PageHeader
        eyebrow="Catalogue"
        title="Add an item"
        lead="Describe the book, paper or course material. Only the title is required; you can add copies once it is in the catalogue."
        actions={
          <ButtonLink to={back} variant="outline">
            Back to the catalogue
          </ButtonLink>
        }
      />
      <section className={`${styles.section} ${styles.newItem}`} aria-label="New item">
        <ItemForm
          initialTitle={initialTitle}
          onCreated={(created) =>
            void navigate(catalogueItemPath(created.id), {
              // The form is done with: Back from the new item goes to the catalogue, not to it.
              replace: true,
              state: { ...(location.state as CatalogueState | null), created: created.title },
            })
          }
        />
      </section>
    </div>
  );
}
