import type { FieldErrors, UseFormRegister } from 'react-hook-form';
import type { PostBookRequest } from '#contract/http/catalogue.ts';
import { TextField } from './fields.tsx';

/**
 * The six fields of a course material, as the publish form asks for them: publishing one and
 * editing one later (the faculty home) show the same fields with the same hints.
 */
export function CourseMaterialFields({
  register,
  errors,
}: {
  register: UseFormRegister<PostBookRequest>;
  errors: FieldErrors<PostBookRequest>;
}) {
  return (
    <>
      <TextField label="Title" registration={register('title')} error={errors.title} required />
      <TextField label="Author" registration={register('author')} error={errors.author} required />
      <TextField
        label="Publication date"
        type="date"
        registration={register('publishedDate')}
        error={errors.publishedDate}
        required
      />
      <TextField
        label="Drive link"
        type="url"
        registration={register('driveLink')}
        error={errors.driveLink}
        hint="Share the file so anyone with the link can view it."
        required
      />
      <TextField
        label="Institute name"
        registration={register('instituteName')}
        error={errors.instituteName}
        required
      />
      <TextField label="Genre" registration={register('genre')} error={errors.genre} required />
    </>
  );
}
