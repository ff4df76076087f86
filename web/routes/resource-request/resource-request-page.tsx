import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useSearchParams } from 'react-router';
import type { z } from 'zod';
import {
  RESOURCE_TYPE_LABELS,
  RESOURCE_TYPES,
  resourceRequestSchema,
} from '#contract/http/requests.ts';
import { DEFAULT_RESOURCE_TYPE } from '#contract/limits.ts';
import { EMAIL_NOT_VERIFIED_CODE } from '#contract/http/users.ts';
import { ApiError } from '../../api/client.ts';
import { useSubmitRequest } from '../../api/requests.ts';
import { useCurrentUser } from '../../api/session.ts';
import {
  FormMessage,
  formStyles,
  SelectField,
  TextAreaField,
  TextField,
} from '../../components/forms/fields.tsx';
import { MyRequests } from '../../components/records/my-requests.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useDebouncedValue } from '../../hooks/use-debounced-value.ts';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import styles from './request.module.css';
import { requestPrefill } from './prefill.ts';
import { SimilarRequests } from './similar-requests.tsx';

type RequestForm = z.input<typeof resourceRequestSchema>;
type RequestValues = z.output<typeof resourceRequestSchema>;

const TYPE_OPTIONS = RESOURCE_TYPES.map((type) => ({
  value: type,
  label: RESOURCE_TYPE_LABELS[type],
}));

/** How long the title must rest before similar requests are looked up. */
const SIMILAR_DEBOUNCE_MS = 300;

/**
 * The spec's three outcomes: refused by the server (with its reason) or not reached at all. An
 * address not verified yet is told only what to do.
 */
export function submitFailureMessage(error: unknown): string {
  if (error instanceof ApiError && error.code === EMAIL_NOT_VERIFIED_CODE) return error.message;
  if (error instanceof ApiError && error.status !== 0) {
    return error.fromServer
      ? `There is some issue with your request: ${error.message}`
      : 'There is some issue with your request';
  }
  return 'There is some Network issue please try after some time.';
}

/**
 * `/resourse-req` and `/resource-request`: ask the library for a resource it lacks. The name and
 * institution come from the profile; similar open requests show while the title is typed.
 */
export function ResourceRequestPage() {
  useDocumentTitle('Request a resource');
  const { data: user } = useCurrentUser();
  const submit = useSubmitRequest();
  const [submitted, setSubmitted] = useState(false);
  const [failure, setFailure] = useState('');
  // "Request this" from the chatbot: `?title=&type=` fills the form in; sending is theirs.
  const [params] = useSearchParams();
  const prefill = requestPrefill(params.toString());
  const {
    register,
    handleSubmit,
    reset,
    getValues,
    setError,
    control,
    formState: { errors, isSubmitting },
  } = useForm<RequestForm, unknown, RequestValues>({
    resolver: zodResolver(resourceRequestSchema),
    defaultValues: {
      student: [user?.firstName, user?.lastName].filter(Boolean).join(' '),
      title: prefill.title ?? '',
      description: '',
      resourceType: prefill.resourceType ?? DEFAULT_RESOURCE_TYPE,
      institutionName: user?.institutionName ?? '',
    },
  });
  const title = useWatch({ control, name: 'title' });
  const settledTitle = useDebouncedValue(title, SIMILAR_DEBOUNCE_MS);

  const onSubmit = async (values: RequestValues) => {
    setSubmitted(false);
    setFailure('');
    try {
      await submit.mutateAsync(values);
      setSubmitted(true);
      // Name, type and institution usually stay the same for the next request.
      reset({ ...getValues(), title: '', description: '' });
    } catch (error) {
      if (error instanceof ApiError) {
        for (const field of error.fieldErrors) {
          if (field.path in resourceRequestSchema.shape)
            setError(field.path as keyof RequestForm, { message: field.message });
        }
      }
      setFailure(submitFailureMessage(error));
    }
  };

  return (
    <div className={formStyles.wrap}>
      <div className={`container ${styles.layout}`}>
        <section className={formStyles.card} aria-labelledby="request-title">
          <h1 id="request-title" className={formStyles.title}>
            Request a resource
          </h1>
          <p className={formStyles.subtitle}>
            Ask the library for a book, journal, article or course material it does not have yet.
          </p>
          <form className={formStyles.form} onSubmit={handleSubmit(onSubmit)} noValidate>
            {submitted ? <FormMessage kind="info">Successfully Submitted</FormMessage> : null}
            <FormMessage>{failure}</FormMessage>
            <TextField
              label="Name"
              autoComplete="name"
              registration={register('student')}
              error={errors.student}
              required
            />
            <TextField
              label="Title"
              registration={register('title')}
              error={errors.title}
              required
            />
            <SimilarRequests title={settledTitle} />
            <TextAreaField
              label="Description (optional)"
              registration={register('description')}
              error={errors.description}
            />
            <SelectField
              label="Resource type"
              registration={register('resourceType')}
              error={errors.resourceType}
              options={TYPE_OPTIONS}
              // Selected from the first paint, before react-hook-form applies its defaults.
              defaultValue={prefill.resourceType ?? DEFAULT_RESOURCE_TYPE}
            />
            <TextField
              label="Institution"
              autoComplete="organization"
              registration={register('institutionName')}
              error={errors.institutionName}
              required
            />
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting ? 'Submitting…' : 'Submit request'}
            </Button>
          </form>
        </section>
        <section className={styles.section} aria-labelledby="my-requests-title">
          <h2 id="my-requests-title" className={styles.sectionTitle}>
            Your requests
          </h2>
          <MyRequests />
        </section>
      </div>
    </div>
  );
}
