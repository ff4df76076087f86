import { z } from 'zod';
import { searchQuerySchema } from './catalogue.ts';

/**
 * `GET /api/export/catalogue.csv` and `.xml` query: the filters of `GET /api/search` (q, type,
 * author, year, category, withdrawn), all optional: none exports the whole catalogue.
 */
export const catalogueExportQuerySchema = z.object({
  q: searchQuerySchema.shape.q,
  type: searchQuerySchema.shape.type,
  author: searchQuerySchema.shape.author,
  year: searchQuerySchema.shape.year,
  category: searchQuerySchema.shape.category,
  withdrawn: searchQuerySchema.shape.withdrawn,
});
export type CatalogueExportQuery = z.output<typeof catalogueExportQuerySchema>;
