import { ROUTES } from '#contract/routes.ts';

/** The file id of a Google Drive link, by its `/d/{id}` or `id={id}` form (ids are 25+ characters). */
export function driveFileId(link: string): string | null {
  const match = /\/d\/([A-Za-z0-9_-]{25,})/.exec(link) ?? /[?&]id=([A-Za-z0-9_-]{25,})/.exec(link);
  return match?.[1] ?? null;
}

/** The address of Drive's embeddable preview of a file. */
export function drivePreviewUrl(fileId: string): string {
  return `https://drive.google.com/file/d/${fileId}/preview`;
}

/** The reader's own address for a link: it can be bookmarked, shared, and gone back to. */
export function readerAddress(link: string): string {
  return `${ROUTES.reader}?link=${encodeURIComponent(link)}`;
}
