import { z } from 'zod';

/** A link to one of the library's social network pages. */
export const socialLinkSchema = z.object({
  network: z.enum(['facebook', 'x', 'instagram', 'linkedin']),
  label: z.string(),
  // Shown as a link in every footer: web pages only, never `javascript:` or `data:`.
  url: z.url({ protocol: /^https?$/ }),
});

/** `GET /api/library`: the library's public identity, shown in the footer and used by the chatbot. */
export const libraryInfoSchema = z.object({
  name: z.string(),
  address: z.string(),
  phone: z.string(),
  email: z.string(),
  hours: z.array(z.string()),
  hoursNote: z.string(),
  social: z.array(socialLinkSchema),
});

export type SocialLink = z.infer<typeof socialLinkSchema>;
export type LibraryInfo = z.infer<typeof libraryInfoSchema>;
