import { describe, expect, it } from 'vitest';
import type { CirculationEvent } from '#contract/http/loans.ts';
import { ApiError } from '../../api/client.ts';
import { activityText, refusalOfCopy, refusalText } from './circulation-text.ts';

const event = (overrides: Partial<CirculationEvent>): CirculationEvent => ({
  at: '2026-03-02T09:05:00.000Z',
  action: 'check_out',
  actor: 'Dana Okafor',
  borrower: 'Ada Lovelace',
  barcode: 'DL-0001',
  title: 'Dune',
  loanId: 'LOAN-1',
  reservationId: null,
  ...overrides,
});

describe('the desk’s words', () => {
  it('names the copy of a refusal once', () => {
    const server = (message: string) => new ApiError(409, message, [], true);
    expect(refusalOfCopy('dl-7', server('No copy has the barcode DL-7.'))).toBe(
      'No copy has the barcode DL-7.',
    );
    expect(refusalOfCopy('DL-7', server('Nobody has an active reservation of "Dune".'))).toBe(
      'DL-7: Nobody has an active reservation of "Dune".',
    );
    expect(refusalText(new ApiError(0, 'offline'))).toBe(
      'The server could not be reached. Check the connection and try again.',
    );
    expect(
      refusalText(
        new ApiError(400, 'Check the form', [{ path: 'email', message: 'Give an e-mail' }], true),
      ),
    ).toBe('Check the form Give an e-mail');
  });

  it('says each recorded action in a sentence', () => {
    expect(activityText(event({}))).toBe('Dana Okafor checked out “Dune” to Ada Lovelace');
    expect(activityText(event({ action: 'return' }))).toBe(
      'Dana Okafor checked in “Dune” from Ada Lovelace',
    );
    expect(activityText(event({ action: 'renew' }))).toBe(
      'Dana Okafor renewed Ada Lovelace’s loan of “Dune”',
    );
    expect(activityText(event({ action: 'renew', actor: 'Ada Lovelace' }))).toBe(
      'Ada Lovelace renewed their loan of “Dune”',
    );
    expect(activityText(event({ action: 'no_show', barcode: null }))).toBe(
      'Dana Okafor marked Ada Lovelace as a no-show for “Dune”',
    );
  });
});
