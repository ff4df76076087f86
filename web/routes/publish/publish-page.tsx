import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { postBookRequestSchema, type PostBookRequest } from '#contract/http/catalogue.ts';
import { ROUTES } from '#contract/routes.ts';
import { ApiError } from '../../api/client.ts';
import { usePublishCourseMaterial } from '../../api/catalogue.ts';
import { CourseMaterialFields } from '../../components/forms/course-material-fields.tsx';
import { FormMessage, formStyles } from '../../components/forms/fields.tsx';
import { Button, ButtonLink } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';

const EMPTY: PostBookRequest = {
  title: '',
  author: '',
  publishedDate: '',
  driveLink: '',
  instituteName: '',
  genre: '',
};

/** `/publish`: faculty publish a course material by its six fields. */
export function PublishPage() {
  useDocumentTitle('Publish course material');
  const publish = usePublishCourseMaterial();
  const [published, setPublished] = useState('');
  const [failure, setFailure] = useState('');
  const {
    register,
    handleSubmit,
    reset,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<PostBookRequest>({
    resolver: zodResolver(postBookRequestSchema),
    defaultValues: EMPTY,
  });

  const onSubmit = async (values: PostBookRequest) => {
    setFailure('');
    setPublished('');
    try {
      const result = await publish.mutateAsync(values);
      setPublished(
        `Book published successfully! “${result.payload.title}” is now in Course Materials.`,
      );
      reset(EMPTY);
    } catch (error) {
      if (error instanceof ApiError) {
        for (const field of error.fieldErrors) {
          if (field.path in EMPTY)
            setError(field.path as keyof PostBookRequest, { message: field.message });
        }
      }
      setFailure(
        error instanceof ApiError && error.fromServer
          ? `The material was not published: ${error.message}`
          : 'The material was not published: the server could not be reached. Please try again.',
      );
    }
  };

  return (
    <div className={formStyles.wrap}>
      <div className="container">
        <section className={formStyles.card} aria-labelledby="publish-title">
          <h1 id="publish-title" className={formStyles.title}>
            Publish course material
          </h1>
          <p className={formStyles.subtitle}>
            Share a document with your students by its Google Drive link.
          </p>
          {published ? (
            <FormMessage kind="info">
              {published}{' '}
              <ButtonLink to={`${ROUTES.librarySearch}?tab=courses`} variant="ghost">
                See it
              </ButtonLink>
            </FormMessage>
          ) : null}
          <form className={formStyles.form} onSubmit={handleSubmit(onSubmit)} noValidate>
            <FormMessage>{failure}</FormMessage>
            <CourseMaterialFields register={register} errors={errors} />
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Publishing…' : 'Publish'}
            </Button>
          </form>
        </section>
      </div>
    </div>
  );
}
