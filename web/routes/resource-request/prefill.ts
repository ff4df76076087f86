import { RESOURCE_TYPES, type ResourceType } from '#contract/http/requests.ts';

/** The longest title a link may fill in (the form's own limit checks the rest). */
const PREFILL_TITLE_MAX = 300;

/** The catalogue's item types, as the request form names them ("Request this" links use either). */
const ITEM_TYPES: Record<string, ResourceType> = {
  book: 'book',
  paper: 'article',
  course: 'courseMaterial',
};

/**
 * What a link to the request form fills in: `?title=…&type=…` (the Digi Chatbot's "Request this",
 * issue 25). Only fills the form; nothing is sent until the person presses its button. A type the
 * form does not know is left out.
 */
export function requestPrefill(search: string): { title?: string; resourceType?: ResourceType } {
  const params = new URLSearchParams(search);
  const title = params.get('title')?.trim().slice(0, PREFILL_TITLE_MAX);
  const type = params.get('type') ?? '';
  const resourceType = (RESOURCE_TYPES as readonly string[]).includes(type)
    ? (type as ResourceType)
    : ITEM_TYPES[type];
  return { ...(title ? { title } : {}), ...(resourceType ? { resourceType } : {}) };
}
