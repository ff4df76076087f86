import { useQuery } from '@tanstack/react-query';
import { libraryInfoSchema } from '#contract/http/library.ts';
import { apiRequest } from './client.ts';

/** The library's identity (name, address, contacts, hours, social links) from the server's configuration. */
export function useLibraryInfo() {
  return useQuery({
    queryKey: ['library'],
    queryFn: () => apiRequest('/library', libraryInfoSchema),
    staleTime: Infinity,
  });
}
