import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  myRequestsResponseSchema,
  requestListResponseSchema,
  requestRecordResponseSchema,
  resourceRequestResponseSchema,
  similarRequestsResponseSchema,
} from '#contract/http/requests.ts';
import { createTestApp, type TestApp } from '../../test/app.ts';
import { testDatabaseKinds } from '../../test/databases.ts';
import { signedInPerson, type SignedInPerson } from '../../test/factories.ts';
import { TestClient } from '../../test/http.ts';

const REQUEST = {
  student: 'Ada Lovelace',
  title: 'Introduction to Quantum Computing',
  description: 'The 2024 edition, for the physics reading group.',
  resourceType: 'book',
  institutionName: 'Campus University',
};

describe.each(testDatabaseKinds())('resource requests on %s', (kind) => {
  let testApp: TestApp;
  let student: SignedInPerson;
  let classmate: SignedInPerson;
  let faculty: SignedInPerson;
  let librarian: SignedInPerson;

  const file = async (person: SignedInPerson, body: Record<string, unknown> = {}) => {
    const response = await person.client.post('/api/users/requests', { ...REQUEST, ...body });
    expect(response.statusCode, response.body).toBe(200);
    return resourceRequestResponseSchema.parse(response.json()).request;
  };

  const move = (person: SignedInPerson, id: string, body: Record<string, unknown>) =>
    person.client.patch(`/api/faculty/requests/${id}`, body);

  beforeAll(async () => {
    testApp = await createTestApp(kind);
    student = await signedInPerson(testApp);
    classmate = await signedInPerson(testApp);
    faculty = await signedInPerson(testApp, 'faculty');
    librarian = await signedInPerson(testApp, 'librarian');
  });
  afterAll(async () => testApp.close());
  beforeEach(async () => {
    await testApp.database.db.deleteFrom('resource_requests').execute();
    await testApp.database.db.deleteFrom('rate_limits').execute();
  });

  describe('POST /api/users/requests', () => {
    it('files a request for the signed-in person, with the spec defaults', async () => {
      const request = await file(student, { description: '   ', resourceType: undefined });
      expect(request).toMatchObject({
        student: 'Ada Lovelace',
        title: 'Introduction to Quantum Computing',
        resourceType: 'other',
        institutionName: 'Campus University',
        status: 'pending',
        supporters: 1,
        mine: true,
        supportedByMe: true,
      });
      expect(request.description).toBeUndefined();
      const row = await testApp.database.db
        .selectFrom('resource_requests')
        .select('requester_id')
        .executeTakeFirstOrThrow();
      expect(row.requester_id).toBe(student.id);
    });

    it('refuses guests (401) and bad fields (400) with messages per field', async () => {
      const guest = new TestClient(testApp.app, testApp.config.publicUrl);
      expect((await guest.post('/api/users/requests', REQUEST)).statusCode).toBe(401);
      const response = await student.client.post('/api/users/requests', {
        student: '',
        title: ' ',
        resourceType: 'film',
        institutionName: '',
        description: 'x'.repeat(2001),
      });
      expect(response.statusCode).toBe(400);
      expect(
        response
          .json()
          .errors.map((error: { path: string }) => error.path)
          .sort(),
      ).toEqual(['description', 'institutionName', 'resourceType', 'student', 'title']);
      const text = await student.client.post('/api/users/requests', 'not json');
      expect(text.statusCode).toBe(415);
      expect(text.json().message).toBe('Send the request body as application/json.');
    });

    // Found by the fuzzer: a NUL reached the INSERT (or the similarity query) and failed it: a 500.
    it('refuses a NUL in any field, or in the similar-titles query, with a 400', async () => {
      const response = await student.client.post('/api/users/requests', {
        ...REQUEST,
        institutionName: 'Campus\u0000University',
      });
      expect(response.statusCode).toBe(400);
      expect(response.json().errors).toEqual([
        { path: 'institutionName', message: 'Text cannot contain the NUL character (U+0000).' },
      ]);
      const similar = await student.client.get('/api/users/requests/similar?title=quan%00tum');
      expect(similar.statusCode).toBe(400);
      expect(
        await testApp.database.db.selectFrom('resource_requests').select('id').execute(),
      ).toEqual([]);
    });

    it('holds at most 10 open requests per person, even when they arrive together', async () => {
      const answers = await Promise.all(
        Array.from({ length: 14 }, (_, index) =>
          student.client.post('/api/users/requests', { ...REQUEST, title: `Volume ${index}` }),
        ),
      );
      const codes = answers.map((answer) => answer.statusCode);
      expect(codes.filter((code) => code === 200)).toHaveLength(10);
      expect(codes.filter((code) => code === 409)).toHaveLength(4);
      expect(answers.find((answer) => answer.statusCode === 409)?.json().message).toMatch(
        /already have 10 open requests/,
      );
      // An answered request no longer counts: one rejected frees a place.
      const mine = myRequestsResponseSchema.parse(
        (await student.client.get('/api/users/requests')).json(),
      );
      expect(mine.payload).toHaveLength(10);
      await move(faculty, mine.payload[0]!._id, { status: 'rejected', reason: 'Out of print' });
      await file(student, { title: 'One more' });
    });
  });

  describe('similar requests and support', () => {
    it('finds open requests with similar titles while typing, and adds support once', async () => {
      const original = await file(student);
      const closed = await file(student, { title: 'Quantum Computing for Poets' });
      await move(faculty, closed._id, { status: 'rejected', reason: 'Duplicate' });

      const similar = async (title: string) =>
        similarRequestsResponseSchema.parse(
          (
            await classmate.client.get(
              `/api/users/requests/similar?title=${encodeURIComponent(title)}`,
            )
          ).json(),
        ).payload;
      expect((await similar('quantum comp')).map((row) => row._id)).toEqual([original._id]);
      expect((await similar('Introduction to Quantm Computing')).map((row) => row._id)).toEqual([
        original._id,
      ]);
      expect(await similar('medieval poetry')).toEqual([]);
      expect(await similar('100%_')).toEqual([]);
      const short = await classmate.client.get('/api/users/requests/similar?title=qu');
      expect(short.statusCode).toBe(400);

      const support = () =>
        classmate.client.post(`/api/users/requests/${original._id}/support`, {});
      const first = requestRecordResponseSchema.parse((await support()).json()).request;
      expect(first).toMatchObject({ supporters: 2, supportedByMe: true, mine: false });
      const again = requestRecordResponseSchema.parse((await support()).json()).request;
      expect(again.supporters).toBe(2);
      // The requester's own support is already counted.
      const own = await student.client.post(`/api/users/requests/${original._id}/support`, {});
      expect(requestRecordResponseSchema.parse(own.json()).request.supporters).toBe(2);

      const onClosed = await classmate.client.post(`/api/users/requests/${closed._id}/support`, {});
      expect(onClosed.statusCode).toBe(409);
      expect((await classmate.client.post('/api/users/requests/nope/support', {})).statusCode).toBe(
        404,
      );
    });
  });

  describe('GET /api/faculty/get-req and PATCH /api/faculty/requests/:id', () => {
    it('lists every request for faculty and librarians, filtered and sorted', async () => {
      const book = await file(student);
      const journal = await file(classmate, { title: 'Nature Physics', resourceType: 'journal' });
      await classmate.client.post(`/api/users/requests/${book._id}/support`, {});
      await file(classmate, { title: 'Lecture notes', resourceType: 'courseMaterial' });

      expect((await student.client.get('/api/faculty/get-req')).statusCode).toBe(403);
      const list = async (query = '') =>
        requestListResponseSchema.parse(
          (await librarian.client.get(`/api/faculty/get-req${query}`)).json(),
        ).data;
      expect((await list()).map((row) => row.title)).toEqual([
        'Lecture notes',
        'Nature Physics',
        'Introduction to Quantum Computing',
      ]);
      expect((await list('?sort=support'))[0]?._id).toBe(book._id);
      expect((await list('?type=journal')).map((row) => row._id)).toEqual([journal._id]);
      await move(faculty, journal._id, { status: 'accepted' });
      expect((await list('?status=accepted')).map((row) => row._id)).toEqual([journal._id]);
      expect((await list('?status=pending&type=')).length).toBe(2);
      const bad = await librarian.client.get('/api/faculty/get-req?status=lost');
      expect(bad.statusCode).toBe(400);
    });

    it('moves a request through its statuses, and the requester sees each with its reason', async () => {
      const request = await file(student);
      expect((await move(student, request._id, { status: 'accepted' })).statusCode).toBe(403);
      const skip = await move(faculty, request._id, { status: 'ordered' });
      expect(skip.statusCode).toBe(409);
      expect(skip.json().message).toBe('This request is pending; it cannot become ordered.');
      for (const status of ['accepted', 'ordered', 'available']) {
        const moved = await move(status === 'ordered' ? librarian : faculty, request._id, {
          status,
        });
        expect(moved.statusCode, moved.body).toBe(200);
        expect(requestRecordResponseSchema.parse(moved.json()).request.status).toBe(status);
      }
      const late = await move(faculty, request._id, { status: 'rejected', reason: 'Too late' });
      expect(late.statusCode).toBe(409);

      const other = await file(student, { title: 'A rare manuscript' });
      const noReason = await move(faculty, other._id, { status: 'rejected' });
      expect(noReason.statusCode).toBe(400);
      expect(noReason.json().errors[0].message).toBe('Give a reason for the rejection');
      expect(
        (await move(faculty, other._id, { status: 'rejected', reason: 'Not sold any more' }))
          .statusCode,
      ).toBe(200);
      expect((await move(faculty, other._id, { status: 'pending' })).statusCode).toBe(409);
      expect((await move(faculty, 'nope', { status: 'accepted' })).statusCode).toBe(404);

      const mine = myRequestsResponseSchema.parse(
        (await student.client.get('/api/users/requests')).json(),
      ).payload;
      expect(mine.map((row) => [row.title, row.status, row.statusReason])).toEqual([
        ['A rare manuscript', 'rejected', 'Not sold any more'],
        ['Introduction to Quantum Computing', 'available', undefined],
      ]);
      // Nobody else's requests show in one's own list.
      const theirs = myRequestsResponseSchema.parse(
        (await classmate.client.get('/api/users/requests')).json(),
      ).payload;
      expect(theirs).toEqual([]);
    });
  });
});
