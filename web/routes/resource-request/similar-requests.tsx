import { REQUEST_STATUS_LABELS, RESOURCE_TYPE_LABELS } from '#contract/http/requests.ts';
import { ApiError } from '../../api/client.ts';
import { SIMILAR_TITLE_MIN, useSimilarRequests, useSupportRequest } from '../../api/requests.ts';
import { supportersText } from '../../components/records/my-requests.tsx';
import { Button } from '../../components/ui/button.tsx';
import styles from './request.module.css';

/**
 * Open requests whose titles look like the one being typed, so a person can add their +1 to an
 * existing request instead of filing a duplicate.
 */
export function SimilarRequests({ title }: { title: string }) {
  const similar = useSimilarRequests(title);
  const support = useSupportRequest();
  const matches = similar.data ?? [];
  const visible = title.trim().length >= SIMILAR_TITLE_MIN && matches.length > 0;

  return (
    <>
      {/* Only the count is announced: reading every match out on each keystroke would drown the form. */}
      <p role="status" className="visually-hidden">
        {visible ? `${matches.length} similar open request${matches.length === 1 ? '' : 's'}` : ''}
      </p>
      {visible ? (
        <section className={styles.similar} aria-labelledby="similar-requests-title">
          <h2 id="similar-requests-title">Similar open requests</h2>
          <ul>
            {matches.map((match) => (
              <li key={match._id} className={styles.match}>
                <span className={styles.matchText}>
                  <span className={styles.matchTitle}>{match.title}</span>
                  <span>
                    {RESOURCE_TYPE_LABELS[match.resourceType]} ·{' '}
                    {REQUEST_STATUS_LABELS[match.status]} · {supportersText(match.supporters)}
                  </span>
                </span>
                {match.supportedByMe || match.mine ? (
                  <span className={styles.supported}>You support this</span>
                ) : (
                  <Button
                    variant="outline"
                    onClick={() => support.mutate(match._id)}
                    disabled={support.isPending && support.variables === match._id}
                  >
                    Support this request
                    <span className="visually-hidden">: {match.title}</span>
                  </Button>
                )}
              </li>
            ))}
          </ul>
          {support.isError ? (
            <p role="alert">
              Your support was not added:{' '}
              {support.error instanceof ApiError && support.error.fromServer
                ? support.error.message
                : 'the server could not be reached. Please try again.'}
            </p>
          ) : null}
        </section>
      ) : null}
    </>
  );
}
