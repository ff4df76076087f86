import { zodResolver } from '@hookform/resolvers/zod';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useForm, type FieldValues, type Path, type UseFormSetError } from 'react-hook-form';
import { z } from 'zod';
import {
  changePasswordResponseSchema,
  currentUserSchema,
  graduationYearSchema,
  passwordSchema,
  phoneSchema,
  type CurrentUser,
} from '#contract/http/users.ts';
import { ApiError, apiPost } from '../../api/client.ts';
import { SESSION_KEY, useCurrentUser } from '../../api/session.ts';
import { FormMessage, TextField } from '../../components/forms/fields.tsx';
import { PageHeader, pageStyles } from '../../components/page/page-header.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';
import styles from './account.module.css';
import { DeleteAccountSection } from './delete-account.tsx';
import { NoticePreferencesSection } from './notice-preferences.tsx';

const required = (label: string, max = 100) =>
  z
    .string()
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

/** The profile form: every field as a text box; an empty graduation year clears it. */
const profileFormSchema = z.object({
  firstName: required('First name'),
  lastName: required('Last name'),
  phoneNumber: phoneSchema,
  institutionName: required('Institution name', 200),
  department: z.string().trim().max(200, 'Department must be at most 200 characters'),
  studentId: z.string().trim().max(50, 'Student ID must be at most 50 characters'),
  graduationYear: z.union([z.literal(''), graduationYearSchema]),
});
type ProfileForm = z.input<typeof profileFormSchema>;

const passwordFormSchema = z
  .object({
    currentPassword: z.string().min(1, 'Your current password is required'),
    newPassword: passwordSchema,
    confirm: z.string(),
  })
  .refine((values) => values.newPassword === values.confirm, {
    path: ['confirm'],
    message: 'The passwords do not match',
  });
type PasswordForm = z.infer<typeof passwordFormSchema>;

/** Puts the server's field errors beside their fields; answers the message for the rest. */
function showRefusal<Values extends FieldValues>(
  error: unknown,
  setError: UseFormSetError<Values>,
  fields: readonly string[],
): string {
  if (!(error instanceof ApiError)) return 'Something went wrong. Please try again.';
  const own = error.fieldErrors.filter((field) => fields.includes(field.path));
  for (const field of own) setError(field.path as Path<Values>, { message: field.message });
  return own.length > 0 && own.length === error.fieldErrors.length ? '' : error.message;
}

function ProfileSection({ user }: { user: CurrentUser }) {
  const queryClient = useQueryClient();
  const [saved, setSaved] = useState('');
  const [failure, setFailure] = useState('');
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting, isDirty },
    reset,
  } = useForm<ProfileForm>({
    resolver: zodResolver(profileFormSchema),
    defaultValues: {
      firstName: user.firstName,
      lastName: user.lastName,
      phoneNumber: user.phoneNumber,
      institutionName: user.institutionName,
      department: user.department,
      studentId: user.studentId,
      graduationYear: user.graduationYear === null ? '' : String(user.graduationYear),
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    setSaved('');
    setFailure('');
    const year = values.graduationYear;
    try {
      const updated = await apiPost(
        '/users/me',
        currentUserSchema,
        { ...values, graduationYear: year === '' ? null : Number(year) },
        { method: 'PATCH' },
      );
      queryClient.setQueryData(SESSION_KEY, updated);
      reset({
        ...values,
        graduationYear: updated.graduationYear === null ? '' : String(updated.graduationYear),
      });
      setSaved('Your profile is saved.');
    } catch (error) {
      setFailure(showRefusal(error, setError, Object.keys(profileFormSchema.shape)));
    }
  });

  return (
    <section className={styles.section} aria-labelledby="profile-title">
      <h2 id="profile-title" className={styles.sectionTitle}>
        Profile
      </h2>
      <p className={styles.muted}>
        Signed in as <strong>{user.email}</strong>. Your e-mail address and role are kept by the
        library.
      </p>
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <div className={styles.pair}>
          <TextField
            label="First name"
            autoComplete="given-name"
            registration={register('firstName')}
            error={errors.firstName}
          />
          <TextField
            label="Last name"
            autoComplete="family-name"
            registration={register('lastName')}
            error={errors.lastName}
          />
        </div>
        <TextField
          label="Phone number"
          type="tel"
          autoComplete="tel"
          registration={register('phoneNumber')}
          error={errors.phoneNumber}
        />
        <TextField
          label="Institution"
          autoComplete="organization"
          registration={register('institutionName')}
          error={errors.institutionName}
        />
        <div className={styles.pair}>
          <TextField
            label="Department"
            registration={register('department')}
            error={errors.department}
          />
          <TextField
            label="Student ID"
            registration={register('studentId')}
            error={errors.studentId}
          />
        </div>
        <TextField
          label="Graduation year"
          inputMode="numeric"
          hint="Leave empty if it does not apply."
          registration={register('graduationYear')}
          error={errors.graduationYear}
        />
        <FormMessage>{failure}</FormMessage>
        <FormMessage kind="info">{saved}</FormMessage>
        <div>
          <Button type="submit" disabled={isSubmitting || !isDirty}>
            {isSubmitting ? 'Saving…' : 'Save profile'}
          </Button>
        </div>
      </form>
    </section>
  );
}

function PasswordSection({ user }: { user: CurrentUser }) {
  const [done, setDone] = useState('');
  const [failure, setFailure] = useState('');
  const {
    register,
    handleSubmit,
    setError,
    reset,
    formState: { errors, isSubmitting },
  } = useForm<PasswordForm>({
    resolver: zodResolver(passwordFormSchema),
    defaultValues: { currentPassword: '', newPassword: '', confirm: '' },
  });
  const onSubmit = handleSubmit(async ({ currentPassword, newPassword }) => {
    setDone('');
    setFailure('');
    try {
      const answer = await apiPost('/users/change-password', changePasswordResponseSchema, {
        currentPassword,
        newPassword,
      });
      reset();
      setDone(answer.message);
    } catch (error) {
      setFailure(showRefusal(error, setError, ['currentPassword', 'newPassword']));
    }
  });

  if (user.signupMethod === 'google' || user.signupMethod === 'oidc') {
    return (
      <section className={styles.section} aria-labelledby="password-title">
        <h2 id="password-title" className={styles.sectionTitle}>
          Password
        </h2>
        <p className={styles.muted}>
          You sign in with {user.signupMethod === 'google' ? 'Google' : 'your institution'}, so
          there is no password to change here.
        </p>
      </section>
    );
  }
  return (
    <section className={styles.section} aria-labelledby="password-title">
      <h2 id="password-title" className={styles.sectionTitle}>
        Password
      </h2>
      <p className={styles.muted}>
        Changing it signs you out everywhere else: other browsers and devices.
      </p>
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <TextField
          label="Current password"
          type="password"
          autoComplete="current-password"
          registration={register('currentPassword')}
          error={errors.currentPassword}
        />
        <TextField
          label="New password"
          type="password"
          autoComplete="new-password"
          hint="At least 8 characters; a few uncommon words are easy to remember and hard to guess."
          registration={register('newPassword')}
          error={errors.newPassword}
        />
        <TextField
          label="New password again"
          type="password"
          autoComplete="new-password"
          registration={register('confirm')}
          error={errors.confirm}
        />
        <FormMessage>{failure}</FormMessage>
        <FormMessage kind="info">{done}</FormMessage>
        <div>
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Changing…' : 'Change password'}
          </Button>
        </div>
      </form>
    </section>
  );
}

/**
 * `/account` ("My account", issue 21): one's own profile fields, password and notice e-mail
 * choices, one's data, and deleting the account. Signed-in members only (the route's guard).
 */
export function AccountPage() {
  useDocumentTitle('My account');
  const { data: user } = useCurrentUser();
  if (!user) return null;
  return (
    <div className={`container ${pageStyles.screen}`}>
      <PageHeader
        title="My account"
        lead="Keep your details up to date, change your password, choose how notices reach you, download what the library keeps about you, or delete your account."
      />
      <div className={styles.layout}>
        <div className={styles.side}>
          <ProfileSection user={user} />
          <NoticePreferencesSection />
        </div>
        <div className={styles.side}>
          <PasswordSection user={user} />
          <section className={styles.section} aria-labelledby="data-title">
            <h2 id="data-title" className={styles.sectionTitle}>
              Your data
            </h2>
            <p className={styles.muted}>
              One file with everything the library keeps about you: your profile, reservations,
              requests, waiting lists and forum messages.
            </p>
            <p>
              <a href="/api/users/me/data" download="digi-library-my-data.json">
                Download my data (JSON)
              </a>
            </p>
          </section>
        </div>
      </div>
      <div className={styles.end}>
        <DeleteAccountSection user={user} />
      </div>
    </div>
  );
}
