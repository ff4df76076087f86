import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ResourceRequestRecord } from '#contract/http/requests.ts';
import { type ApiRoutes, mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { filtersFromParams, RequestsPage } from './requests-page.tsx';

const PENDING: ResourceRequestRecord = {
  _id: 'req-1',
  student: 'Ada Lovelace',
  title: 'Dune Messiah',
  resourceType: 'book',
  institutionName: 'Analytical University',
  status: 'pending',
  supporters: 4,
  mine: false,
  supportedByMe: false,
  createdAt: '2026-03-01T10:00:00.000Z',
};

function setUp(routes: ApiRoutes, path = '/requests') {
  const calls = mockApi(routes);
  const { router } = renderScreen(<RequestsPage />, path, testUser({ role: 'faculty' }));
  return { calls, router };
}

describe('requests table', () => {
  it('reads its filters from the URL and ignores values it does not know', () => {
    expect(
      filtersFromParams(new URLSearchParams('status=ordered&type=journal&sort=support')),
    ).toEqual({ status: 'ordered', type: 'journal', sort: 'support' });
    expect(filtersFromParams(new URLSearchParams('status=lost&sort=random'))).toEqual({
      status: '',
      type: '',
      sort: 'date',
    });
  });

  it("says 'No resource requests found' when there are none", async () => {
    setUp({ 'GET /faculty/get-req': () => ({ body: { data: [] } }) });
    expect(await screen.findByText('No resource requests found')).toBeTruthy();
  });

  it('says why the list failed to load', async () => {
    setUp({
      'GET /faculty/get-req': () => ({
        status: 500,
        body: { success: false, message: 'The database did not answer' },
      }),
    });
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Failed to load resource requests: The database did not answer',
    );
  });

  it('shows each request with its next moves and sends the filters to the server', async () => {
    const { calls, router } = setUp(
      { 'GET /faculty/get-req': () => ({ body: { data: [PENDING] } }) },
      '/requests?sort=support',
    );
    expect(await screen.findByRole('rowheader', { name: 'Dune Messiah' })).toBeTruthy();
    expect(screen.getByText('No description')).toBeTruthy();
    expect(screen.getByRole('cell', { name: 'Ada Lovelace' })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Accept/ })).toBeTruthy();
    expect(screen.getByRole('button', { name: /^Reject/ })).toBeTruthy();
    expect(screen.queryByRole('button', { name: /^Mark available/ })).toBeNull();
    expect(calls[0]?.search.get('sort')).toBe('support');

    fireEvent.change(screen.getByLabelText('Status'), { target: { value: 'pending' } });
    await waitFor(() => expect(calls.at(-1)?.search.get('status')).toBe('pending'));
    expect(router.state.location.search).toBe('?sort=support&status=pending');
  });

  it('asks for a reason before rejecting and shows the server’s refusal', async () => {
    const { calls } = setUp({
      'GET /faculty/get-req': () => ({ body: { data: [PENDING] } }),
      'PATCH /faculty/requests/req-1': () => ({
        status: 409,
        body: { success: false, message: 'This request was already answered.' },
      }),
    });
    fireEvent.click(await screen.findByRole('button', { name: /^Reject/ }));
    const reason = screen.getByLabelText('Reason for rejecting “Dune Messiah”');
    expect(document.activeElement).toBe(reason);

    fireEvent.click(screen.getByRole('button', { name: 'Confirm rejection' }));
    expect(screen.getByText('Give a reason for the rejection')).toBeTruthy();
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);

    fireEvent.change(reason, { target: { value: 'Out of print' } });
    fireEvent.click(screen.getByRole('button', { name: 'Confirm rejection' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'This request was already answered.',
    );
    expect(calls.find((call) => call.method === 'PATCH')?.body).toEqual({
      status: 'rejected',
      reason: 'Out of print',
    });
  });

  it('moves a request on and reloads the list', async () => {
    let status: ResourceRequestRecord['status'] = 'pending';
    const { calls } = setUp({
      'GET /faculty/get-req': () => ({ body: { data: [{ ...PENDING, status }] } }),
      'PATCH /faculty/requests/req-1': () => {
        status = 'accepted';
        return { body: { success: true, request: { ...PENDING, status } } };
      },
    });
    fireEvent.click(await screen.findByRole('button', { name: /^Accept/ }));
    expect(await screen.findByText('“Dune Messiah” is now Accepted.')).toBeTruthy();
    expect(await screen.findByRole('button', { name: /^Mark ordered/ })).toBeTruthy();
    expect(calls.filter((call) => call.path === '/faculty/get-req').length).toBe(2);
  });
});
