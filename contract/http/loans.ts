import { z } from 'zod';
import { emailSchema } from './users.ts';

/** Most times one loan may be renewed, by its borrower or the desk. */
export const LOAN_RENEWALS_MAX = 2;

/** How many days before its due date a loan counts as "due soon" (and its notice is sent). */
export const DUE_SOON_DAYS = 2;

/** Most loans one list shows. */
export const LOANS_LIST_MAX = 200;

/** A copy's barcode as the desk types or scans it. */
const barcode = z
  .string({ message: 'Scan or type the barcode' })
  .trim()
  .min(1, 'Scan or type the barcode')
  .max(64, 'A barcode has at most 64 characters');

/** A loan of one copy, as its borrower sees it. */
export const loanRecordSchema = z.object({
  /** `LOAN-` and digits, made by the server. */
  loanId: z.string(),
  /** Out until returned; returned once it is back. */
  status: z.enum(['on_loan', 'returned']),
  checkedOutAt: z.string(),
  dueAt: z.string(),
  /** Past its due date and not returned. */
  overdue: z.boolean(),
  renewals: z.number().int(),
  renewalsLeft: z.number().int(),
  /** Why it cannot be renewed now (returned, no renewals left, someone waiting); null when it can. */
  renewBlockedBecause: z.string().nullable(),
  returnedAt: z.string().nullable(),
  /** The reservation it was collected from; null for a loan made at the desk without one. */
  reservationId: z.string().nullable(),
  copy: z.object({ barcode: z.string(), location: z.string() }),
  book: z.object({
    id: z.string(),
    title: z.string(),
    author: z.string(),
    coverImage: z.string(),
  }),
});
export type LoanRecord = z.infer<typeof loanRecordSchema>;

/** `GET /api/users/loans`: the caller's loans, those out first (soonest due), then returned ones. */
export const myLoansResponseSchema = z.object({
  payload: z.array(loanRecordSchema),
});

/** `POST /api/users/loans/:id/renew` and the desk's renewal answer. */
export const loanResponseSchema = z.object({
  success: z.literal(true),
  loan: loanRecordSchema,
});

/** A loan as the desk sees it: who has it. */
export const deskLoanSchema = loanRecordSchema.extend({
  borrower: z.object({ name: z.string(), email: z.string(), phoneNumber: z.string() }),
});
export type DeskLoan = z.infer<typeof deskLoanSchema>;

export const deskLoanResponseSchema = z.object({
  success: z.literal(true),
  loan: deskLoanSchema,
});

/**
 * `POST /api/desk/loans`: check out the copy with `barcode`. Whose loan it is: the reservation
 * given, or the active reservation of that book by the person with `email`, or the only active
 * reservation of that book. With `email` and no reservation, a copy nobody has claimed is lent
 * at once (a walk-in).
 */
export const checkOutRequestSchema = z.object({
  barcode,
  reservationId: z
    .string()
    .trim()
    .max(40)
    .regex(/^RES-\d{1,19}$/, 'reservationId looks like RES-100001')
    .optional(),
  email: z.preprocess((value) => (value === '' ? undefined : value), emailSchema.optional()),
});
export type CheckOutRequest = z.input<typeof checkOutRequestSchema>;

/** `POST /api/desk/returns`: check in the copy with `barcode`. */
export const returnRequestSchema = z.object({ barcode });
export type ReturnRequest = z.input<typeof returnRequestSchema>;

/** `GET /api/desk/loans`: the copies out, soonest due first; `overdue=true` only those past due. */
export const deskLoansQuerySchema = z.object({
  overdue: z
    .preprocess((value) => value === 'true' || value === true || value === '1', z.boolean())
    .default(false),
  /** Words of the borrower's name or e-mail, the title, or a barcode. */
  q: z.preprocess(
    (value) => (value === '' ? undefined : value),
    z.string().trim().max(200, 'The search is too long (200 characters at most)').optional(),
  ),
});
export type DeskLoansQuery = z.output<typeof deskLoansQuerySchema>;

export const deskLoansResponseSchema = z.object({
  payload: z.array(deskLoanSchema),
  /** Open loans matching, beyond the list's limit too. */
  total: z.number().int(),
  /** Of those, past their due date. */
  overdue: z.number().int(),
});

/** What the desk did, as recorded. */
export const CIRCULATION_ACTIONS = ['check_out', 'return', 'renew', 'no_show'] as const;
export type CirculationAction = (typeof CIRCULATION_ACTIONS)[number];

/** One recorded desk or borrower action on a copy. */
export const circulationEventSchema = z.object({
  at: z.string(),
  action: z.enum(CIRCULATION_ACTIONS),
  /** Who did it: a librarian, or the borrower renewing their own loan. */
  actor: z.string(),
  /** Whose loan or reservation it was. */
  borrower: z.string(),
  barcode: z.string().nullable(),
  title: z.string(),
  loanId: z.string().nullable(),
  reservationId: z.string().nullable(),
});
export type CirculationEvent = z.infer<typeof circulationEventSchema>;

/** `GET /api/desk/activity`: the desk's latest recorded actions, newest first. */
export const deskActivityResponseSchema = z.object({
  payload: z.array(circulationEventSchema),
});
