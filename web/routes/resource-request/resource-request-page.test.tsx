import { fireEvent, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ResourceRequestRecord } from '#contract/http/requests.ts';
import { EMAIL_NOT_VERIFIED_CODE, emailNotVerifiedMessage } from '#contract/http/users.ts';
import { type ApiAnswer, mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { ResourceRequestPage } from './resource-request-page.tsx';

function record(overrides: Partial<ResourceRequestRecord> = {}): ResourceRequestRecord {
  return {
    _id: 'req-1',
    student: 'Ada Lovelace',
    title: 'Dune Messiah',
    resourceType: 'book',
    institutionName: 'Analytical University',
    status: 'pending',
    supporters: 2,
    mine: false,
    supportedByMe: false,
    createdAt: '2026-03-01T10:00:00.000Z',
    ...overrides,
  };
}

function setUp(submit: () => ApiAnswer, mine: ResourceRequestRecord[] = []) {
  const calls = mockApi({
    'GET /users/requests': () => ({ body: { payload: mine } }),
    'GET /users/requests/similar': () => ({ body: { payload: [] } }),
    'POST /users/requests': submit,
  });
  renderScreen(<ResourceRequestPage />, '/resourse-req', testUser());
  return calls;
}

const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;
const submitForm = () => fireEvent.click(screen.getByRole('button', { name: 'Submit request' }));

describe('resource request form', () => {
  it('fills the title and type in from a "Request this" link, and sends nothing by itself', () => {
    const calls = mockApi({
      'GET /users/requests': () => ({ body: { payload: [] } }),
      'GET /users/requests/similar': () => ({ body: { payload: [] } }),
    });
    renderScreen(
      <ResourceRequestPage />,
      '/resourse-req?title=The%20Quantum%20Teapot&type=paper',
      testUser(),
    );
    expect(field('Title').value).toBe('The Quantum Teapot');
    expect(field('Resource type').value).toBe('article');
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it('fills name, institution and type from the profile and explains what is missing', async () => {
    const calls = setUp(() => ({ body: { success: true, request: record() } }));
    expect(field('Name').value).toBe('Ada Lovelace');
    expect(field('Institution').value).toBe('Analytical University');
    expect(field('Resource type').value).toBe('other');

    fireEvent.change(field('Name'), { target: { value: ' ' } });
    submitForm();
    expect(await screen.findByText('Title is required')).toBeTruthy();
    expect(screen.getByText('Name is required')).toBeTruthy();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });

  it("says 'Successfully Submitted' and clears the title and description", async () => {
    const calls = setUp(() => ({ body: { success: true, request: record() } }));
    fireEvent.change(field('Title'), { target: { value: 'Dune Messiah' } });
    fireEvent.change(field('Description (optional)'), { target: { value: 'Second book' } });
    fireEvent.change(field('Resource type'), { target: { value: 'book' } });
    submitForm();
    expect(await screen.findByText('Successfully Submitted')).toBeTruthy();
    expect(field('Title').value).toBe('');
    expect(field('Description (optional)').value).toBe('');
    expect(field('Resource type').value).toBe('book');
    expect(calls.find((call) => call.method === 'POST')?.body).toEqual({
      student: 'Ada Lovelace',
      title: 'Dune Messiah',
      description: 'Second book',
      resourceType: 'book',
      institutionName: 'Analytical University',
    });
  });

  it("adds the server's reason when it refuses the request", async () => {
    setUp(() => ({
      status: 409,
      body: { success: false, message: 'You already have 10 open requests.' },
    }));
    fireEvent.change(field('Title'), { target: { value: 'Dune Messiah' } });
    submitForm();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'There is some issue with your request: You already have 10 open requests.',
    );
  });

  it('tells an account whose e-mail is not verified only what to do', async () => {
    const message = emailNotVerifiedMessage('ada@example.edu');
    setUp(() => ({
      status: 403,
      body: { success: false, message, code: EMAIL_NOT_VERIFIED_CODE },
    }));
    fireEvent.change(field('Title'), { target: { value: 'Dune Messiah' } });
    submitForm();
    expect((await screen.findByRole('alert')).textContent).toBe(message);
  });

  it('says so when the server cannot be reached', async () => {
    setUp(() => 'network-error');
    fireEvent.change(field('Title'), { target: { value: 'Dune Messiah' } });
    submitForm();
    expect((await screen.findByRole('alert')).textContent).toBe(
      'There is some Network issue please try after some time.',
    );
  });

  it('shows similar open requests while the title is typed and adds support', async () => {
    const calls = mockApi({
      'GET /users/requests': () => ({ body: { payload: [] } }),
      'GET /users/requests/similar': (call) => ({
        body: {
          payload:
            call.search.get('title') === 'Dune'
              ? [record(), record({ _id: 'req-2', title: 'Dune', supportedByMe: true })]
              : [],
        },
      }),
      'POST /users/requests/req-1/support': () => ({
        body: { success: true, request: record({ supporters: 3, supportedByMe: true }) },
      }),
    });
    renderScreen(<ResourceRequestPage />, '/resourse-req', testUser());
    fireEvent.change(field('Title'), { target: { value: 'Du' } });
    fireEvent.change(field('Title'), { target: { value: 'Dune' } });
    expect(
      await screen.findByRole('heading', { name: 'Similar open requests' }, { timeout: 2000 }),
    ).toBeTruthy();
    expect(calls.filter((call) => call.path === '/users/requests/similar')).toHaveLength(1);
    expect(screen.getAllByText('Book · Pending · 2 supporters')).toHaveLength(2);
    expect(screen.getByText('You support this')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: /Support this request.*Dune Messiah/ }));
    await waitFor(() =>
      expect(calls.some((call) => call.path === '/users/requests/req-1/support')).toBe(true),
    );
  });

  it('lists the person’s own requests with the reason for a rejection', async () => {
    setUp(
      () => ({ body: {} }),
      [record({ status: 'rejected', statusReason: 'Out of print', mine: true })],
    );
    expect(await screen.findByRole('heading', { name: 'Dune Messiah' })).toBeTruthy();
    expect(screen.getByText('Rejected')).toBeTruthy();
    expect(screen.getByText('Reason: Out of print')).toBeTruthy();
  });
});
