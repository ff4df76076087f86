import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { Controller, useForm } from 'react-hook-form';
import { Link, Navigate, useNavigate } from 'react-router';
import type { z } from 'zod';
import {
  checkUserResponseSchema,
  homePathFor,
  registerResponseSchema,
  signUpStepOneSchema,
  signUpStepTwoSchema,
} from '../../../contract/http/users.ts';
import { ROUTES } from '../../../contract/routes.ts';
import { GRADUATION_YEAR_MAX, GRADUATION_YEAR_MIN } from '../../../contract/limits.ts';
import { ApiError, apiPost } from '../../api/client.ts';
import { useCurrentUser, useRefreshSession } from '../../api/session.ts';
import { ContinueWithGoogle } from '../../components/auth/provider-button.tsx';
import { FormMessage, formStyles, TextField } from '../../components/forms/fields.tsx';
import { TagInput } from '../../components/forms/tag-input.tsx';
import { Button } from '../../components/ui/button.tsx';
import { useDocumentTitle } from '../../hooks/use-document-title.ts';

type StepOne = z.output<typeof signUpStepOneSchema>;
type StepTwoInput = z.input<typeof signUpStepTwoSchema>;
type StepTwo = z.output<typeof signUpStepTwoSchema>;

/** `/signup`: step 1 (who you are, e-mail checked), step 2 (academic profile), then your home. */
export function SignUpPage() {
  useDocumentTitle('Sign up');
  const { data: user } = useCurrentUser();
  const [stepOne, setStepOne] = useState<StepOne | null>(null);
  const [editing, setEditing] = useState(true);

  if (user?.profileCompleted) return <Navigate to={homePathFor(user.role)} replace />;

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
              <StepTwoForm stepOne={stepOne} onBack={() => setEditing(true)} />
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
      setFailure(
        error instanceof ApiError && error.status === 429 ? error.message : 'Error checking user',
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
        <fieldset className={formStyles.radios}>
          <legend className={formStyles.label}>I am a</legend>
          <label className={formStyles.check}>
            <input type="radio" value="student" {...register('role')} />
            Student
          </label>
          <label className={formStyles.check}>
            <input type="radio" value="faculty" {...register('role')} />
            Faculty
          </label>
        </fieldset>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? 'Checking...' : 'Next'}
        </Button>
      </form>
      <p className={formStyles.divider}>or</p>
      <ContinueWithGoogle />
      <p className={formStyles.subtitle}>
        Already have an account? <Link to={ROUTES.signIn}>Sign in</Link>
      </p>
    </>
  );
}

function StepTwoForm({ stepOne, onBack }: { stepOne: StepOne; onBack: () => void }) {
  const navigate = useNavigate();
  const refreshSession = useRefreshSession();
  const [failure, setFailure] = useState('');
  const {
    register,
    control,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<StepTwoInput, unknown, StepTwo>({
    resolver: zodResolver(signUpStepTwoSchema),
    defaultValues: {
      institutionName: '',
      department: '',
      studentId: '',
      graduationYear: '',
      fields: [],
      interests: [],
    },
  });

  const onSubmit = async (values: StepTwo) => {
    setFailure('');
    try {
      const result = await apiPost('/users/register', registerResponseSchema, {
        ...stepOne,
        institutionName: values.institutionName,
        department: values.department,
        studentId: values.studentId,
        graduationYear: values.graduationYear,
        academicProfile: { fields: values.fields, interests: values.interests },
        signupMethod: 'form',
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
        await navigate(homePathFor(stepOne.role), { replace: true });
        return;
      }
      if (error instanceof ApiError) {
        for (const field of error.fieldErrors) {
          if (field.path in values)
            setError(field.path as keyof StepTwoInput, { message: field.message });
        }
        const stepOneProblems = error.fieldErrors.filter((field) => !(field.path in values));
        setFailure(
          stepOneProblems.length > 0
            ? `${stepOneProblems.map((field) => field.message).join('. ')}. Go back to step 1 to fix it.`
            : error.fromServer
              ? error.message
              : 'Something went wrong',
        );
        return;
      }
      setFailure('Something went wrong');
    }
  };

  return (
    <>
      <span className={formStyles.step}>Step 2 of 2</span>
      <h1 id="sign-up-profile-title" className={formStyles.title}>
        Your academic profile
      </h1>
      <p className={formStyles.subtitle}>Tell us where and what you study, {stepOne.firstName}.</p>
      <form className={formStyles.form} onSubmit={handleSubmit(onSubmit)} noValidate>
        <FormMessage>{failure}</FormMessage>
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
          <Button variant="outline" onClick={onBack} disabled={isSubmitting}>
            Back
          </Button>
          <Button type="submit" disabled={isSubmitting}>
            {isSubmitting ? 'Processing...' : 'Create Account'}
          </Button>
        </div>
      </form>
    </>
  );
}
