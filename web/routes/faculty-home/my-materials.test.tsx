import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ManagedItem } from '#contract/http/items.ts';
import { type ApiRoutes, mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import { formatDay, MyMaterialsSection } from './my-materials.tsx';

const material = (overrides: Partial<ManagedItem> = {}): ManagedItem => ({
  id: 'a1b2c3d4-0000-4000-8000-000000000001',
  type: 'course',
  title: 'Linear Algebra Notes',
  authors: ['Ada Lovelace'],
  year: 2026,
  subjects: ['science'],
  driveLink: 'https://drive.google.com/file/d/notes/view',
  institution: 'Institute of Mathematics',
  genre: 'science',
  publishedDate: '2026-09-01',
  hasContent: false,
  pageCount: 0,
  copies: 0,
  updatedAt: '2026-09-01T10:00:00.000Z',
  ...overrides,
});

const OTHER = material({
  id: 'a1b2c3d4-0000-4000-8000-000000000002',
  title: 'Old Syllabus',
  publishedDate: '2025-01-15',
  withdrawnAt: '2026-02-01T10:00:00.000Z',
});

const faculty = testUser({ role: 'faculty' });
const field = (label: string) => screen.getByLabelText(label) as HTMLInputElement;

function renderSection(routes: ApiRoutes, path = '/facultyprofile') {
  const calls = mockApi({
    'GET /items/mine': () => ({ body: { items: [material(), OTHER] } }),
    ...routes,
  });
  const { router } = renderScreen(<MyMaterialsSection />, path, faculty);
  return { calls, router };
}

describe('your course materials', () => {
  it('lists each with its date, the unpublished ones marked', async () => {
    renderSection({});
    const first = (await screen.findByRole('heading', { name: 'Linear Algebra Notes' })).closest(
      'li',
    )!;
    expect(within(first).getByText('Publication date: Sep 1, 2026')).toBeTruthy();
    expect(within(first).queryByText('Unpublished')).toBeNull();
    expect(within(first).getByRole('button', { name: 'Unpublish' })).toBeTruthy();
    const second = screen.getByRole('heading', { name: 'Old Syllabus' }).closest('li')!;
    expect(within(second).getByText('Unpublished')).toBeTruthy();
    expect(within(second).getByRole('button', { name: 'Publish again' })).toBeTruthy();
    expect(formatDay('2025-01-15')).toBe('Jan 15, 2025');
  });

  it('says so when there are none yet', async () => {
    mockApi({ 'GET /items/mine': () => ({ body: { items: [] } }) });
    renderScreen(<MyMaterialsSection />, '/facultyprofile', faculty);
    expect(await screen.findByText(/You have not published any course materials yet/)).toBeTruthy();
  });

  it('edits one in a prefilled form: field by field errors, then saves and says so', async () => {
    let patched: unknown;
    const { calls, router } = renderSection({
      'PATCH /items/a1b2c3d4-0000-4000-8000-000000000001': (call) => {
        patched = call.body;
        return { body: material({ title: 'Linear Algebra, Week 1' }) };
      },
    });
    const row = (await screen.findByRole('heading', { name: 'Linear Algebra Notes' })).closest(
      'li',
    )!;
    fireEvent.click(within(row).getByRole('button', { name: 'Edit' }));
    // The form is in the address, so Back closes it.
    await waitFor(() =>
      expect(router.state.location.search).toBe('?edit=a1b2c3d4-0000-4000-8000-000000000001'),
    );
    expect(field('Title').value).toBe('Linear Algebra Notes');
    expect(field('Author').value).toBe('Ada Lovelace');
    expect(field('Publication date').value).toBe('2026-09-01');
    expect(field('Drive link').value).toBe('https://drive.google.com/file/d/notes/view');
    expect(field('Institute name').value).toBe('Institute of Mathematics');
    expect(field('Genre').value).toBe('science');

    fireEvent.change(field('Title'), { target: { value: ' ' } });
    fireEvent.change(field('Drive link'), { target: { value: 'javascript:alert(1)' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Title is required')).toBeTruthy();
    expect(screen.getByText('Drive link must be an http:// or https:// URL')).toBeTruthy();
    expect(field('Title').getAttribute('aria-invalid')).toBe('true');
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);

    fireEvent.change(field('Title'), { target: { value: 'Linear Algebra, Week 1' } });
    fireEvent.change(field('Drive link'), {
      target: { value: 'https://drive.google.com/file/d/notes/view' },
    });
    fireEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Changes saved to “Linear Algebra, Week 1”.')).toBeTruthy();
    expect(patched).toEqual({
      title: 'Linear Algebra, Week 1',
      authors: ['Ada Lovelace'],
      publishedDate: '2026-09-01',
      year: 2026,
      driveLink: 'https://drive.google.com/file/d/notes/view',
      institution: 'Institute of Mathematics',
      genre: 'science',
    });
  });

  it("shows the server's refusal when saving fails", async () => {
    renderSection(
      {
        'PATCH /items/a1b2c3d4-0000-4000-8000-000000000001': () => ({
          status: 403,
          body: {
            success: false,
            message: 'You can change only the course materials you published.',
          },
        }),
      },
      '/facultyprofile?edit=a1b2c3d4-0000-4000-8000-000000000001',
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Save changes' }));
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Not saved: You can change only the course materials you published.',
    );
  });

  it('unpublishes after asking, and publishes again', async () => {
    const { calls } = renderSection({
      'DELETE /items/a1b2c3d4-0000-4000-8000-000000000001': () => ({
        body: material({ withdrawnAt: '2026-09-02T10:00:00.000Z' }),
      }),
      'POST /items/a1b2c3d4-0000-4000-8000-000000000002/restore': () => ({
        body: { ...OTHER, withdrawnAt: undefined },
      }),
    });
    const row = (await screen.findByRole('heading', { name: 'Linear Algebra Notes' })).closest(
      'li',
    )!;
    fireEvent.click(within(row).getByRole('button', { name: 'Unpublish' }));
    const dialog = await screen.findByRole('dialog', { name: 'Unpublish “Linear Algebra Notes”?' });
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Unpublish' }));
    expect(
      await screen.findByText('“Linear Algebra Notes” is unpublished: students no longer see it.'),
    ).toBeTruthy();
    expect(calls.filter((call) => call.method === 'DELETE')).toHaveLength(1);

    const other = screen.getByRole('heading', { name: 'Old Syllabus' }).closest('li')!;
    fireEvent.click(within(other).getByRole('button', { name: 'Publish again' }));
    expect(await screen.findByText(/“Old Syllabus” is published again/)).toBeTruthy();
    // The list is read again after each change.
    await waitFor(() =>
      expect(calls.filter((call) => call.path === '/items/mine').length).toBeGreaterThan(2),
    );
  });
});
