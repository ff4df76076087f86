import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm, type UseFormRegisterReturn } from 'react-hook-form';
import { Link, Navigate, useNavigate } from 'react-router';
import { z } from 'zod';
import {
  completeProfileSchema,
  SIGNUP_ROLES,
  type CurrentUser,
  splitName,
  checkUserResponseSchema,
  homePathFor,
  registerResponseSchema,
  signUpStepOneSchema,
  signUpStepTwoSchema,
} from '#contract/http/users.ts';
import { ROUTES } from '#contract/routes.ts';
import { GRADUATION_YEAR_MAX, GRADUATION_YEAR_MIN } from '#contract/limits.ts';
import { ApiError, apiPost } from '../../api/client.ts';
import { useCurrentUser, useRefreshSession } from '../../api/session.ts';
import { ProviderButtons } from '../../components/auth/provider-button.tsx';
import { FieldFrame, FormMessage, formStyles, TextField } from '../../components/forms/fields.tsx';
import { TagInput } from '../../components/forms/tag-input.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';

type StepOne = z.output<typeof signUpStepOneSchema>;

/** `/signup`: step 1 (who you are, e-mail checked), step 2 (academic profile), then your home. */
export function SignUpPage() {
  useDocumentTitle('Sign up');
  const { data: user } = useCurrentUser();
  const [stepOne, setStepOne] = useState<StepOne | null>(null);
  const [editing, setEditing] = useState(true);

  if (user?.profileCompleted) return <Navigate to={homePathFor(user.role)} replace />;
  if (user) {
    return (
      <div className={formStyles.wrap}>
        <div className="container">
          <section className={formStyles.card} aria-labelledby="sign-up-profile-title">
            <ProfileForm mode={{ kind: 'provider', user }} />
          </section>
        </div>
      </div>
    );
  }

  return (
    <div className={formStyles.wrap}>
      <div className="container">
        <section
          className={formStyles.card}
          aria-labelledby={editing ? 'sign-up-title' : 'sign-up-profile-title'}
        >
          {/* Both steps stay mounted so Back and Next keep what each holds. */}
          <div hidden={!editing}>
            <StepOneForm
              onDone={(values) => {
                setStepOne(values);
                setEditing(false);
              }}
            />
          </div>
          {stepOne ? (
            <div hidden={editing}>
              <ProfileForm mode={{ kind: 'form', stepOne, onBack: () => setEditing(true) }} />
            </div>
          ) : null}
        </section>
      </div>
    </div>
  );
}

function StepOneForm({ onDone }: { onDone: (values: StepOne) => void }) {
  const navigate = useNavigate();
  const [failure, setFailure] = useState('');
  const {
    register,
    handleSubmit,
    formState: { errors, isSubmitting },
  } = useForm<StepOne>({
    resolver: zodResolver(signUpStepOneSchema),
    defaultValues: {
      firstName: '',
      lastName: '',
      email: '',
      password: '',
      phoneNumber: '',
      role: 'student',
    },
  });

  const onSubmit = async (values: StepOne) => {
    setFailure('');
    try {
      const check = await apiPost('/users/check-user', checkUserResponseSchema, {
        email: values.email,
      });
      if (check.exists && check.payload) {
        // The spec's rule: an existing account goes to its profile (sign-in is asked on the way).
        await navigate(homePathFor(check.payload.role));
        return;
      }
      onDone(values);
    } catch (error) {
      // The spec's words, and the server's reason beside them: a refusal is never a mystery.
      setFailure(
        error instanceof ApiError && error.status === 429
          ? error.message
          : error instanceof ApiError && error.fromServer
            ? `Error checking user: ${error.message}`
            : 'Error checking user',
      );
    }
  };

  return (
    <>
      <span className={formStyles.step}>Step 1 of 2</span>
      <h1 id="sign-up-title" className={formStyles.title}>
        Sign up
      </h1>
      <p className={formStyles.subtitle}>Create your Digi Library account.</p>
      <form className={formStyles.form} onSubmit={handleSubmit(onSubmit)} noValidate>
        <FormMessage>{failure}</FormMessage>
        <div className={formStyles.row}>
          <TextField
            label="First name"
            autoComplete="given-name"
            registration={register('firstName')}
            error={errors.firstName}
            required
          />
          <TextField
            label="Last name"
            autoComplete="family-name"
            registration={register('lastName')}
            error={errors.lastName}
            required
          />
        </div>
        <TextField
          label="Email"
          type="email"
          autoComplete="email"
          registration={register('email')}
          error={errors.email}
          required
        />
        <TextField
          label="Password"
          type="password"
          autoComplete="new-password"
          registration={register('password')}
          error={errors.password}
          hint="Password must be at least 8 characters"
          required
        />
        <TextField
          label="Phone number"
          type="tel"
          autoComplete="tel"
          registration={register('phoneNumber')}
          error={errors.phoneNumber}
          required
        />
        <RoleChoice registration={register('role')} />
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Checking...' : 'Next'}
        </Button>
      </form>
      <p className={formStyles.divider}>or</p>
      <ProviderButtons />
      <p className={formStyles.subtitle}>
        Already have an account? <Link to={ROUTES.signIn}>Sign in</Link>
      </p>
    </>
  );
}

/** Step 2 of the form sign-up, or the whole of 'Complete Your Profile' after a first provider sign-in. */
type ProfileMode =
  { kind: 'form'; stepOne: StepOne; onBack: () => void } | { kind: 'provider'; user: CurrentUser };

// The form sign-up asked for phone and role in step 1: only the provider mode checks them here.
const formModeProfileSchema = signUpStepTwoSchema.extend({
  phoneNumber: z.string(),
  role: z.enum(SIGNUP_ROLES),
});

type ProfileInput = z.input<typeof completeProfileSchema>;
type Profile = z.output<typeof completeProfileSchema>;

function ProfileForm({ mode }: { mode: ProfileMode }) {
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const [failure, setFailure] = useState('');
  const provider = mode.kind === 'provider';
  const names = provider ? splitName(mode.user.name) : mode.stepOne;
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ProfileInput, unknown, Profile>({
    resolver: zodResolver(provider ? completeProfileSchema : formModeProfileSchema),
    defaultValues: {
      institutionName: '',
      department: '',
      studentId: '',
      graduationYear: '',
      fields: [],
      interests: [],
      phoneNumber: provider ? '' : mode.stepOne.phoneNumber,
      role: provider ? 'student' : mode.stepOne.role,
    },
  });

  const onSubmit = async (values: Profile) => {
    setFailure('');
    const identity = provider
      ? {
          ...names,
          email: mode.user.email,
          phoneNumber: values.phoneNumber,
          role: values.role,
          signupMethod: 'google' as const,
        }
      : { ...mode.stepOne, signupMethod: 'form' as const };
    try {
      const result = await apiPost('/users/register', registerResponseSchema, {
        ...identity,
        institutionName: values.institutionName,
        department: values.department,
        studentId: values.studentId,
        graduationYear: values.graduationYear,
        academicProfile: { fields: values.fields, interests: values.interests },
      });
      if (!result.success) {
        setFailure(result.message || 'Registration failed');
        return;
      }
      await refreshSession();
      await navigate(homePathFor(result.user.role), { replace: true });
    } catch (error) {
      if (
        error instanceof ApiError &&
        error.status === 400 &&
        error.message === 'User already exists'
      ) {
        await navigate(homePathFor(identity.role), { replace: true });
        return;
      }
      if (!(error instanceof ApiError)) {
        setFailure('Something went wrong');
        return;
      }
      for (const field of error.fieldErrors) {
        if (field.path in values)
          setError(field.path as keyof ProfileInput, { message: field.message });
      }
      const elsewhere = error.fieldErrors.filter((field) => !(field.path in values));
      setFailure(
        elsewhere.length > 0
          ? // The server's messages may be whole sentences already (the password's advice).
            `${elsewhere.map((field) => field.message.replace(/\.$/, '')).join('. ')}.${provider ? '' : ' Go back to step 1 to fix it.'}`
          : error.fromServer
            ? error.message
            : 'Registration failed',
      );
    }
  };

  return (
    <>
      {provider ? null : <span className={formStyles.step}>Step 2 of 2</span>}
      <h1 id="sign-up-profile-title" className={formStyles.title}>
        {provider ? 'Complete Your Profile' : 'Your academic profile'}
      </h1>
      <p className={formStyles.subtitle}>
        {provider
          ? `Welcome ${names.firstName}! Please complete your academic profile.`
          : `Tell us where and what you study, ${names.firstName}.`}
      </p>
      <form className={formStyles.form} onSubmit={handleSubmit(onSubmit)} noValidate>
        <FormMessage>{failure}</FormMessage>
        {mode.kind === 'provider' ? (
          <>
            <div className={formStyles.row}>
              <ReadOnlyField label="First name" value={names.firstName} />
              <ReadOnlyField label="Last name" value={names.lastName} />
            </div>
            <ReadOnlyField label="Email" value={mode.user.email} />
            <TextField
              label="Phone number"
              type="tel"
              autoComplete="tel"
              registration={register('phoneNumber')}
              error={errors.phoneNumber}
              required
            />
            <RoleChoice registration={register('role')} />
          </>
        ) : null}
        <TextField
          label="Institution name"
          autoComplete="organization"
          registration={register('institutionName')}
          error={errors.institutionName}
          required
        />
        <TextField
          label="Department"
          registration={register('department')}
          error={errors.department}
          required
        />
        <div className={formStyles.row}>
          <TextField
            label="Student ID"
            registration={register('studentId')}
            error={errors.studentId}
            required
          />
          <TextField
            label="Graduation year"
            type="number"
            inputMode="numeric"
            min={GRADUATION_YEAR_MIN}
            max={GRADUATION_YEAR_MAX}
            registration={register('graduationYear')}
            error={errors.graduationYear}
            required
          />
        </div>
        <Controller
          control={control}
          name="fields"
          render={({ field }) => (
            <TagInput
              label="Fields of study"
              value={field.value ?? []}
              onChange={field.onChange}
              placeholder="e.g. Computer Science"
            />
          )}
        />
        <Controller
          control={control}
          name="interests"
          render={({ field }) => (
            <TagInput
              label="Academic interests"
              value={field.value ?? []}
              onChange={field.onChange}
              placeholder="e.g. Machine learning"
            />
          )}
        />
        <div className={formStyles.actions}>
          {mode.kind === 'form' ? (
            <Button variant="outline" onClick={mode.onBack} disabled={isSubmitting}>
              Back
            </Button>
          ) : null}
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Processing...' : provider ? 'Complete Registration' : 'Create Account'}
          </Button>
        </div>
      </form>
    </>
  );
}

function ReadOnlyField({ label, value }: { label: string; value: string }) {
  return (
    <FieldFrame label={label}>
      {(control) => <input {...control} className={formStyles.input} value={value} readOnly />}
    </FieldFrame>
  );
}

/** The student / faculty choice of sign-up. */
function RoleChoice({ registration }: { registration: UseFormRegisterReturn }) {
  return (
    <fieldset className={formStyles.radios}>
      <legend className={formStyles.label}>I am a</legend>
      <label className={formStyles.check}>
        <input type="radio" value="student" {...registration} />
        Student
      </label>
      <label className={formStyles.check}>
        <input type="radio" value="faculty" {...registration} />
        Faculty
      </label>
    </fieldset>
  );
}
