import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { InsightsResponse } from '#contract/http/insights.ts';
import { matchesWords } from '../requests/requests-page.tsx';
import { mockApi, renderScreen, testUser } from '../../test/api-mock.tsx';
import {
  addToCatalogueAddress,
  DeskInsightsPage,
  formatHours,
  periodFrom,
  requestsLikeAddress,
} from './desk-insights-page.tsx';

function insights(overrides: Partial<InsightsResponse> = {}): InsightsResponse {
  return {
    period: 30,
    from: '2026-10-28',
    to: '2026-11-26',
    searchesEmpty: {
      terms: [{ term: 'quantum knitting', searches: 12 }],
      byWeek: [{ week: '2026-11-23', term: 'quantum knitting', searches: 12 }],
    },
    searchesTop: [{ term: 'pride', searches: 40 }],
    itemsViewed: [{ itemId: 'i1', title: 'Emma', count: 9 }],
    itemsReserved: [],
    itemsBorrowed: [],
    requests: {
      byWeek: [{ week: '2026-11-23', type: 'book', status: 'pending', count: 3 }],
      medianHoursToAnswer: 30,
      answered: 4,
    },
    pickups: {
      cells: [{ weekday: 2, hour: 10, count: 6 }],
      noShowRate: 0.25,
      noShows: 1,
      due: 4,
    },
    rooms: {
      messagesByDay: [{ day: '2026-11-25', messages: 14 }],
      activeRooms: 2,
      moderationByDay: [
        { day: '2026-11-25', action: 'hide', count: 2 },
        { day: '2026-11-26', action: 'mute', count: 1 },
      ],
    },
    chatbotUnanswered: [
      {
        wording: 'can i bring my dog',
        questions: 9,
        variants: [
          { wording: 'can i bring my dog', questions: 6 },
          { wording: 'bringing dogs', questions: 3 },
        ],
      },
    ],
    ...overrides,
  };
}

describe('library insights screen', () => {
  it('lists the searches that found nothing with what to do about each', async () => {
    const calls = mockApi({ 'GET /insights': () => ({ body: insights() }) });
    renderScreen(<DeskInsightsPage />, '/desk/insights', testUser({ role: 'librarian' }));
    const panel = await screen.findByRole('region', { name: 'Searches that found nothing' });
    const add = within(panel).getAllByRole('link', {
      name: /^Add to catalogue ?: quantum knitting$/,
    });
    expect(add[0]?.getAttribute('href')).toBe('/desk/catalogue/new?title=quantum+knitting');
    const like = within(panel).getAllByRole('link', {
      name: /^Show requests like this ?: quantum knitting$/,
    });
    expect(like[0]?.getAttribute('href')).toBe('/requests?q=quantum+knitting');
    expect(
      within(panel)
        .getByRole('link', { name: /Download CSV/ })
        .getAttribute('href'),
    ).toBe('/api/insights/export.csv?panel=searches-empty&period=30');
    expect(calls[0]?.search.get('period')).toBe('30');
    expect(screen.getByText('Median time to an answer: 30 hours (4 answered).')).toBeTruthy();
    expect(screen.getByText('No-show rate: 25% (1 of 4 pickups).')).toBeTruthy();
  });

  it('shows each chart as a table on request, by keyboard-reachable buttons', async () => {
    mockApi({ 'GET /insights': () => ({ body: insights() }) });
    renderScreen(<DeskInsightsPage />, '/desk/insights?period=7', testUser({ role: 'librarian' }));
    const panel = await screen.findByRole('region', { name: 'Most searched terms' });
    const toggle = within(panel).getByRole('button', { name: /Show as table/ });
    expect(toggle.getAttribute('aria-expanded')).toBe('false');
    fireEvent.click(toggle);
    expect(toggle.getAttribute('aria-expanded')).toBe('true');
    const table = within(panel).getByRole('table');
    expect(within(table).getByRole('rowheader', { name: 'pride' })).toBeTruthy();
    expect(within(table).getByRole('cell', { name: '40' })).toBeTruthy();
  });

  it('says so when nothing reaches 5 people', async () => {
    mockApi({
      'GET /insights': () => ({
        body: insights({ searchesEmpty: { terms: [], byWeek: [] }, searchesTop: [] }),
      }),
    });
    renderScreen(<DeskInsightsPage />, '/desk/insights', testUser({ role: 'librarian' }));
    const panel = await screen.findByRole('region', { name: 'Searches that found nothing' });
    expect(within(panel).getByText(/at least 5 different people/)).toBeTruthy();
  });

  it('groups the chatbot questions it could not answer, with their wordings', async () => {
    mockApi({ 'GET /insights': () => ({ body: insights() }) });
    renderScreen(<DeskInsightsPage />, '/desk/insights', testUser({ role: 'librarian' }));
    const panel = await screen.findByRole('region', {
      name: 'Chatbot questions it could not answer',
    });
    const list = within(panel).getByRole('list', { name: 'Questions to teach it' });
    expect(within(list).getByText('can i bring my dog')).toBeTruthy();
    expect(within(list).getByText('bringing dogs')).toBeTruthy();
    expect(within(list).getByText('(9 questions, 2 wordings)')).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: /Show as table/ }));
    const table = within(panel).getByRole('table');
    expect(within(table).getAllByRole('row')).toHaveLength(3);
    expect(within(table).getByRole('cell', { name: 'also: bringing dogs' })).toBeTruthy();
    expect(
      within(panel)
        .getByRole('link', { name: /Download CSV/ })
        .getAttribute('href'),
    ).toBe('/api/insights/export.csv?panel=chatbot-unanswered&period=30');
  });

  it('shows the rooms: messages and moderation actions by day', async () => {
    mockApi({ 'GET /insights': () => ({ body: insights() }) });
    renderScreen(<DeskInsightsPage />, '/desk/insights', testUser({ role: 'librarian' }));
    const panel = await screen.findByRole('region', { name: 'Rooms' });
    expect(
      within(panel).getByText('2 rooms had messages in this period; moderators took 3 actions.'),
    ).toBeTruthy();
    fireEvent.click(within(panel).getByRole('button', { name: /Show as table/ }));
    const table = within(panel).getByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((cell) => cell.textContent);
    expect(headers).toEqual(['Day', 'Messages', 'Messages hidden', 'People muted']);
    const rows = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((row) => [...row.querySelectorAll('th, td')].map((cell) => cell.textContent));
    expect(rows).toEqual([
      ['2026-11-25', '14', '2', '0'],
      ['2026-11-26', '0', '0', '1'],
    ]);
  });

  it('gives each panel its own period, its CSV following it', async () => {
    const calls = mockApi({ 'GET /insights': () => ({ body: insights() }) });
    renderScreen(<DeskInsightsPage />, '/desk/insights', testUser({ role: 'librarian' }));
    const panel = await screen.findByRole('region', { name: 'Most searched terms' });
    const select = within(panel).getByRole('combobox', {
      name: 'Period of most searched terms',
    });
    fireEvent.change(select, { target: { value: '365' } });
    await within(panel).findByRole('link', { name: /Download CSV/ });
    expect(
      within(panel)
        .getByRole('link', { name: /Download CSV/ })
        .getAttribute('href'),
    ).toBe('/api/insights/export.csv?panel=searches-top&period=365');
    expect(calls.some((call) => call.search.get('period') === '365')).toBe(true);
    // The other panels keep the page's period.
    const other = screen.getByRole('region', { name: 'Most viewed items' });
    expect(
      within(other)
        .getByRole('link', { name: /Download CSV/ })
        .getAttribute('href'),
    ).toBe('/api/insights/export.csv?panel=items-viewed&period=30');
  });

  it('reads the period from the address, and formats its numbers', () => {
    expect(periodFrom('365')).toBe(365);
    expect(periodFrom('12')).toBe(30);
    expect(periodFrom(null)).toBe(30);
    expect(formatHours(5.5)).toBe('5.5 hours');
    expect(formatHours(72)).toBe('3 days');
    expect(addToCatalogueAddress('a & b')).toBe('/desk/catalogue/new?title=a+%26+b');
    expect(requestsLikeAddress('x')).toBe('/requests?q=x');
  });
});

describe('requests filtered by words', () => {
  it('keeps the requests whose title or description hold every word', () => {
    const request = { title: 'Quantum Knitting', description: 'for the physics club' };
    expect(matchesWords(request, 'knitting')).toBe(true);
    expect(matchesWords(request, 'quantum PHYSICS')).toBe(true);
    expect(matchesWords(request, 'quantum crochet')).toBe(false);
    expect(matchesWords(request, '')).toBe(true);
  });
});
