import { z } from 'zod';
import { DEFAULT_RESOURCE_TYPE } from '../limits.ts';
import { blankToUndefined } from './catalogue.ts';

/** Kinds of resource a person can ask the library to acquire (spec section 3). */
export const RESOURCE_TYPES = ['book', 'journal', 'article', 'courseMaterial', 'other'] as const;
export type ResourceType = (typeof RESOURCE_TYPES)[number];

/** How each resource type reads on screen. */
export const RESOURCE_TYPE_LABELS: Record<ResourceType, string> = {
  book: 'Book',
  journal: 'Journal',
  article: 'Article',
  courseMaterial: 'Course Material',
  other: 'Other',
};

/**
 * A request's life, after Koha's purchase suggestions: pending, then accepted, ordered and
 * available, or rejected (with a reason) at any point before it is available.
 */
export const REQUEST_STATUSES = [
  'pending',
  'accepted',
  'ordered',
  'available',
  'rejected',
] as const;
export type RequestStatus = (typeof REQUEST_STATUSES)[number];

/** Statuses in which a request still counts against its requester's open requests. */
export const OPEN_REQUEST_STATUSES = ['pending', 'accepted', 'ordered'] as const;

/** Which statuses a request may move to from each status. */
export const REQUEST_TRANSITIONS: Record<RequestStatus, readonly RequestStatus[]> = {
  pending: ['accepted', 'rejected'],
  accepted: ['ordered', 'rejected'],
  ordered: ['available', 'rejected'],
  available: [],
  rejected: [],
};

/** How each status reads on screen. */
export const REQUEST_STATUS_LABELS: Record<RequestStatus, string> = {
  pending: 'Pending',
  accepted: 'Accepted',
  ordered: 'Ordered',
  available: 'Available',
  rejected: 'Rejected',
};

/** Most open requests (pending, accepted or ordered) one person may hold. */
export const OPEN_REQUESTS_MAX = 10;

/** Longest title and description of a request. */
export const REQUEST_TITLE_MAX = 300;
export const REQUEST_DESCRIPTION_MAX = 2000;

/**
 * `POST /api/users/requests`, the spec's payload. `student` is the name shown on the request; the
 * requester is always the signed-in person, whatever it says.
 */
export const resourceRequestSchema = z.object({
  student: z.string({ message: 'Name is required' }).trim().min(1, 'Name is required').max(120),
  title: z
    .string({ message: 'Title is required' })
    .trim()
    .min(1, 'Title is required')
    .max(REQUEST_TITLE_MAX, `Title is at most ${REQUEST_TITLE_MAX} characters`),
  description: z.preprocess(
    (value) => (value === null ? undefined : blankToUndefined(value)),
    z
      .string()
      .trim()
      .max(REQUEST_DESCRIPTION_MAX, `Description is at most ${REQUEST_DESCRIPTION_MAX} characters`)
      .optional(),
  ),
  resourceType: z.preprocess(
    (value) => (value === undefined || value === '' ? DEFAULT_RESOURCE_TYPE : value),
    z.enum(RESOURCE_TYPES, {
      message: 'Resource type must be book, journal, article, courseMaterial or other',
    }),
  ),
  institutionName: z
    .string({ message: 'Institution is required' })
    .trim()
    .min(1, 'Institution is required')
    .max(200),
});
export type ResourceRequestInput = z.input<typeof resourceRequestSchema>;

/** A request as its requester and the staff see it. */
export const resourceRequestRecordSchema = z.object({
  _id: z.string(),
  student: z.string(),
  title: z.string(),
  description: z.string().optional(),
  resourceType: z.enum(RESOURCE_TYPES),
  institutionName: z.string(),
  status: z.enum(REQUEST_STATUSES),
  /** Why it was rejected (or a note with another change). */
  statusReason: z.string().optional(),
  statusChangedAt: z.string().optional(),
  /** People who want it: the requester and everyone who added their support. */
  supporters: z.number(),
  /** The caller filed it. */
  mine: z.boolean(),
  /** The caller filed it or added their support. */
  supportedByMe: z.boolean(),
  createdAt: z.string(),
});
export type ResourceRequestRecord = z.infer<typeof resourceRequestRecordSchema>;

export const resourceRequestResponseSchema = z.object({
  success: z.literal(true),
  request: resourceRequestRecordSchema,
});

/** `GET /api/users/requests`: the caller's own requests, newest first. */
export const myRequestsResponseSchema = z.object({
  payload: z.array(resourceRequestRecordSchema),
});

/** `GET /api/users/requests/similar?title=`: open requests whose titles look like it. */
export const similarRequestsQuerySchema = z.object({
  title: z.string().trim().min(3, 'Type at least 3 characters').max(REQUEST_TITLE_MAX),
});
export const similarRequestsResponseSchema = z.object({
  payload: z.array(resourceRequestRecordSchema),
});

/** `GET /api/faculty/get-req`: optional filters and order. */
export const requestListQuerySchema = z.object({
  status: z.preprocess(
    blankToUndefined,
    z
      .enum(REQUEST_STATUSES, {
        message: 'status must be pending, accepted, ordered, available or rejected',
      })
      .optional(),
  ),
  type: z.preprocess(
    blankToUndefined,
    z
      .enum(RESOURCE_TYPES, {
        message: 'type must be book, journal, article, courseMaterial or other',
      })
      .optional(),
  ),
  sort: z.preprocess(
    blankToUndefined,
    z.enum(['date', 'support'], { message: 'sort must be date or support' }).default('date'),
  ),
});
export type RequestListQuery = z.input<typeof requestListQuerySchema>;

/** `GET /api/faculty/get-req` answer (the spec's `data`). */
export const requestListResponseSchema = z.object({
  data: z.array(resourceRequestRecordSchema),
});

/** `PATCH /api/faculty/requests/:id`: move a request on; a rejection needs a reason. */
export const requestStatusChangeSchema = z
  .object({
    status: z.enum(REQUEST_STATUSES, {
      message: 'status must be pending, accepted, ordered, available or rejected',
    }),
    reason: z.preprocess(blankToUndefined, z.string().trim().max(500).optional()),
  })
  .refine((change) => change.status !== 'rejected' || change.reason !== undefined, {
    message: 'Give a reason for the rejection',
    path: ['reason'],
  });
export type RequestStatusChange = z.infer<typeof requestStatusChangeSchema>;

/** `POST /api/users/requests/:id/support` and `PATCH /api/faculty/requests/:id` answer. */
export const requestRecordResponseSchema = z.object({
  success: z.literal(true),
  request: resourceRequestRecordSchema,
});
