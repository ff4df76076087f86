import { expect } from 'vitest';
import { searchResponseSchema, type SearchResponse } from '#contract/http/catalogue.ts';
import type { TestClient } from './http.ts';

/** `GET /api/search?<query>` as `client`: expects a 200 and answers it read by its schema. */
export async function searchAs(client: TestClient, query: string): Promise<SearchResponse> {
  const response = await client.get(`/api/search?${query}`);
  expect(response.statusCode, response.body).toBe(200);
  return searchResponseSchema.parse(response.json());
}
