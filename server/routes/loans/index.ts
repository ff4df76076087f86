import { z } from 'zod';
import {
  checkOutRequestSchema,
  deskActivityResponseSchema,
  deskLoanResponseSchema,
  deskLoansQuerySchema,
  deskLoansResponseSchema,
  loanResponseSchema,
  myLoansResponseSchema,
  returnRequestSchema,
} from '#contract/http/loans.ts';
import { parseInput } from '../../http/errors.ts';
import { wakeNotices } from '../../notices/job.ts';
import { presentCirculationEvent, presentDeskLoan, presentLoan } from '../../presenters/loans.ts';
import {
  checkOut,
  deskActivity,
  deskLoans,
  findLoan,
  ownLoans,
  renewLoan,
  returnCopy,
} from '../../reservations/loans.ts';
import type { RouteContext } from '../context.ts';
import { declareRoute, signedInCaller, type DeclaringInstance } from '../declare-route.ts';

/** A loan's id, as `loanId` shows it. */
const loanParams = z.object({
  id: z
    .string()
    .regex(/^LOAN-\d+$/)
    .describe('The loan id, `LOAN-` and digits; any other text is a 404.'),
});

/**
 * Loans (decision 030): one's own and renewing them; at the desk, checking copies out and in by
 * barcode, renewing, the copies out and overdue, and the record of what the desk did.
 */
export async function loanRoutes(app: DeclaringInstance, context: RouteContext): Promise<void> {
  const db = context.database.db;
  const terms = {
    loanDays: context.config.library.loanDays,
    timeZone: context.config.library.timeZone,
  };
  const actorOf = (request: Parameters<typeof signedInCaller>[0]) => {
    const caller = signedInCaller(request);
    return { id: caller.id, name: caller.name };
  };

  app.get(
    '/users/loans',
    declareRoute({
      tag: 'loans',
      summary: "The caller's loans",
      description:
        'Copies out first, soonest due, with whether each can be renewed; then returned ones.',
      access: 'signed-in',
      response: myLoansResponseSchema,
    }),
    async (request) => {
      const user = signedInCaller(request);
      const now = context.now();
      const rows = await ownLoans(db, user.id, now);
      return { payload: rows.map((row) => presentLoan(row, now)) };
    },
  );

  app.post(
    '/users/loans/:id/renew',
    declareRoute({
      tag: 'loans',
      summary: "Renew one's own loan",
      description: `At most twice, and not while someone waits for the book. Anyone else's loan is a 404.`,
      access: 'signed-in',
      params: loanParams,
      response: loanResponseSchema,
      errors: { 409: 'Returned, renewed the most times allowed, or someone is waiting.' },
    }),
    async (request) => {
      const actor = actorOf(request);
      const now = context.now();
      const id = await renewLoan(db, {
        loanId: request.params.id,
        borrowerId: actor.id,
        actor,
        terms,
        now,
      });
      return { success: true as const, loan: presentLoan(await findLoan(db, id, now), now) };
    },
  );

  app.get(
    '/desk/loans',
    declareRoute({
      tag: 'desk',
      summary: 'The copies out on loan, soonest due first',
      description:
        'Only those past due with `overdue=true`; narrowed by words of the borrower, title or barcode (`q`).',
      access: ['librarian'],
      query: deskLoansQuerySchema,
      response: deskLoansResponseSchema,
    }),
    async (request) => {
      const query = parseInput(deskLoansQuerySchema, request.query);
      const now = context.now();
      const { rows, total, overdue } = await deskLoans(db, query, now);
      return { payload: rows.map((row) => presentDeskLoan(row, now)), total, overdue };
    },
  );

  app.post(
    '/desk/loans',
    declareRoute({
      tag: 'desk',
      summary: 'Check a copy out by its barcode',
      description:
        "To the holder of `reservationId`, or of the book's active reservation by the person with `email`, or of its only active reservation; with `email` and no reservation, a copy nobody has claimed is lent at once.",
      access: ['librarian'],
      body: checkOutRequestSchema,
      response: deskLoanResponseSchema,
      errors: {
        404: 'No copy has that barcode, or no such reservation or person.',
        409: 'The copy is not on the shelf, or whose loan it is cannot be told, or every copy is claimed.',
      },
    }),
    async (request) => {
      const actor = actorOf(request);
      const body = parseInput(checkOutRequestSchema, request.body);
      const now = context.now();
      const id = await checkOut(db, { ...body, actor, terms, now });
      return { success: true as const, loan: presentDeskLoan(await findLoan(db, id, now), now) };
    },
  );

  app.post(
    '/desk/returns',
    declareRoute({
      tag: 'desk',
      summary: 'Check a copy in by its barcode',
      description: 'The copy goes back on the shelf and is offered first to the waiting list.',
      access: ['librarian'],
      body: returnRequestSchema,
      response: deskLoanResponseSchema,
      errors: { 404: 'No copy has that barcode.', 409: 'The copy is not on loan.' },
    }),
    async (request) => {
      const actor = actorOf(request);
      const { barcode } = parseInput(returnRequestSchema, request.body);
      const now = context.now();
      const id = await returnCopy(db, { barcode, actor, now });
      wakeNotices(context.jobs, request.log);
      return { success: true as const, loan: presentDeskLoan(await findLoan(db, id, now), now) };
    },
  );

  app.post(
    '/desk/loans/:id/renew',
    declareRoute({
      tag: 'desk',
      summary: 'Renew a loan at the desk',
      description: 'At most twice, and not while someone waits for the book.',
      access: ['librarian'],
      params: loanParams,
      response: deskLoanResponseSchema,
      errors: { 409: 'Returned, renewed the most times allowed, or someone is waiting.' },
    }),
    async (request) => {
      const actor = actorOf(request);
      const now = context.now();
      const id = await renewLoan(db, {
        loanId: request.params.id,
        borrowerId: null,
        actor,
        terms,
        now,
      });
      return { success: true as const, loan: presentDeskLoan(await findLoan(db, id, now), now) };
    },
  );

  app.get(
    '/desk/activity',
    declareRoute({
      tag: 'desk',
      summary: "The desk's latest recorded actions",
      description: 'Check-outs, returns, renewals and no-shows: who did them, when, which copy.',
      access: ['librarian'],
      response: deskActivityResponseSchema,
    }),
    async () => {
      const rows = await deskActivity(db);
      return { payload: rows.map(presentCirculationEvent) };
    },
  );
}
