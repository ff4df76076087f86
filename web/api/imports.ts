import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import {
  catalogueImportListSchema,
  catalogueImportSchema,
  UPLOAD_CONTENT_TYPE,
  type CatalogueImport,
  type UploadKind,
} from '#contract/http/imports.ts';
import { ApiError, apiRequest, refusalFrom } from './client.ts';

/** Cache key of the latest imports (`GET /api/imports`). */
export const IMPORTS_KEY = ['imports'] as const;

/** How often a running import is asked how far it has got. */
const FOLLOW_INTERVAL_MS = 1_000;

/** Whether an import is still on its way. */
export function importRunning(entry: Pick<CatalogueImport, 'state'>): boolean {
  return entry.state === 'queued' || entry.state === 'running';
}

/**
 * Sends a file to `POST /api/imports` as it is, telling `onProgress` the share sent so far (0 to
 * 1). XMLHttpRequest, not fetch: only it reports an upload's progress. Answers the queued import;
 * a refusal is an ApiError with the server's sentence.
 */
export function uploadImportFile(
  file: Blob,
  { kind, name }: { kind: UploadKind; name: string },
  onProgress: (share: number) => void,
): Promise<CatalogueImport> {
  return new Promise((resolve, reject) => {
    const request = new XMLHttpRequest();
    const query = new URLSearchParams({ kind, name });
    request.open('POST', `/api/imports?${query}`);
    request.setRequestHeader('content-type', UPLOAD_CONTENT_TYPE);
    request.setRequestHeader('accept', 'application/json');
    request.responseType = 'text';
    request.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) onProgress(event.loaded / event.total);
    };
    request.onerror = () =>
      reject(new ApiError(0, 'Could not reach the server. Check your connection and try again.'));
    request.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(request.responseText);
      } catch {
        body = undefined;
      }
      if (request.status < 200 || request.status >= 300) {
        reject(refusalFrom(request.status, body, 'The upload failed. Please try again.'));
        return;
      }
      const parsed = catalogueImportSchema.safeParse(body);
      if (parsed.success) resolve(parsed.data);
      else
        reject(
          new ApiError(request.status, 'The server sent an answer this page does not understand.'),
        );
    };
    request.send(file);
  });
}

/**
 * The latest imports, newest first; asked again every second while one of them runs. When one
 * finishes, searches are refreshed: the catalogue has changed.
 */
export function useImports() {
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: IMPORTS_KEY,
    queryFn: async () => (await apiRequest('/imports', catalogueImportListSchema)).imports,
    refetchInterval: (current) =>
      current.state.data?.some(importRunning) ? FOLLOW_INTERVAL_MS : false,
  });
  const running = query.data?.filter(importRunning).length ?? 0;
  // Only when an import this screen saw running has finished, not on every visit.
  const wasRunning = useRef(0);
  useEffect(() => {
    if (running < wasRunning.current) void queryClient.invalidateQueries({ queryKey: ['search'] });
    wasRunning.current = running;
  }, [running, queryClient]);
  return query;
}
