import { z } from 'zod';
import {
  GRADUATION_YEAR_MAX,
  GRADUATION_YEAR_MIN,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  TAG_MAX_COUNT,
  TAG_MAX_LENGTH,
} from '../limits.ts';

/** Every role an account can have. Librarians are made by a command, never by sign-up. */
export const ROLES = ['student', 'faculty', 'librarian'] as const;
export type Role = (typeof ROLES)[number];

/** Roles a person may choose at sign-up. */
export const SIGNUP_ROLES = ['student', 'faculty'] as const;

/** E-mail, normalised: 'A@X.org ' and 'a@x.org' are one account. */
export const emailSchema = z
  .string({ message: 'E-mail is required' })
  .trim()
  .toLowerCase()
  .min(1, 'E-mail is required')
  .max(254, 'E-mail is too long')
  .pipe(z.email('Enter a valid e-mail address'));

/** A new password: the spec's minimum and a maximum against hashing abuse. */
export const passwordSchema = z
  .string({ message: 'Password is required' })
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

const requiredText = (label: string, max = 100) =>
  z
    .string({ message: `${label} is required` })
    .trim()
    .min(1, `${label} is required`)
    .max(max, `${label} must be at most ${max} characters`);

const optionalText = (label: string, max = 100) =>
  z.string().trim().max(max, `${label} must be at most ${max} characters`).optional();

/** A phone number as people type it: digits with spaces, dashes, dots, brackets and a leading +. */
export const phoneSchema = z
  .string({ message: 'Phone number is required' })
  .trim()
  .min(1, 'Phone number is required')
  .regex(/^\+?[\d\s().-]{5,30}$/, 'Enter a valid phone number');

/** Fields-of-study or interest tags: trimmed, empties and duplicates dropped. */
export const tagsSchema = z
  .array(z.string().max(TAG_MAX_LENGTH, `A tag must be at most ${TAG_MAX_LENGTH} characters`))
  .max(TAG_MAX_COUNT, `At most ${TAG_MAX_COUNT} tags`)
  .transform((tags) => normaliseTags(tags));

/** Trims tags and drops empty and repeated ones (case-insensitively), keeping the first spelling. */
export function normaliseTags(tags: readonly string[]): string[] {
  const seen = new Set<string>();
  const result: string[] = [];
  for (const raw of tags) {
    const tag = raw.trim();
    if (!tag || seen.has(tag.toLowerCase())) continue;
    seen.add(tag.toLowerCase());
    result.push(tag);
  }
  return result;
}

export const graduationYearSchema = z.coerce
  .number({ message: 'Graduation year must be a number' })
  .int('Graduation year must be a whole number')
  .min(
    GRADUATION_YEAR_MIN,
    `Graduation year must be between ${GRADUATION_YEAR_MIN} and ${GRADUATION_YEAR_MAX}`,
  )
  .max(
    GRADUATION_YEAR_MAX,
    `Graduation year must be between ${GRADUATION_YEAR_MIN} and ${GRADUATION_YEAR_MAX}`,
  );

/** Sign-up step 1 (the form): who the person is. */
export const signUpStepOneSchema = z.object({
  firstName: requiredText('First name'),
  lastName: requiredText('Last name'),
  email: emailSchema,
  password: passwordSchema,
  phoneNumber: phoneSchema,
  role: z.enum(SIGNUP_ROLES, { message: 'Choose student or faculty' }),
});

/** Sign-up step 2 (the form): the academic profile. */
export const signUpStepTwoSchema = z.object({
  institutionName: requiredText('Institution name', 200),
  department: requiredText('Department', 200),
  studentId: requiredText('Student ID', 50),
  graduationYear: graduationYearSchema,
  fields: tagsSchema,
  interests: tagsSchema,
});

/** 'Complete Your Profile' after a first Google or institutional sign-in: step 2 plus what step 1 would ask. */
export const completeProfileSchema = signUpStepTwoSchema.extend({
  phoneNumber: phoneSchema,
  role: z.enum(SIGNUP_ROLES, { message: 'Choose student or faculty' }),
});

/** Splits a provider's display name: the first word is the first name, the rest the last name. */
export function splitName(name: string): { firstName: string; lastName: string } {
  const [firstName = '', ...rest] = name.trim().split(/\s+/);
  return { firstName, lastName: rest.join(' ') };
}

/**
 * `POST /api/auth/sign-in/social` (better-auth's endpoint) as the web app calls it: the provider
 * ('google', or 'oidc' for the institution's own) and the screens to come back to.
 */
export const providerSignInRequestSchema = z.object({
  provider: z.enum(['google', 'oidc']),
  callbackURL: z.string().optional(),
  newUserCallbackURL: z.string().optional(),
  errorCallbackURL: z.string().optional(),
});

/** `POST /api/auth/sign-in/social` and `/sign-in/oauth2`: where to send the browser next. */
export const providerRedirectSchema = z.object({ url: z.string() });

/** `POST /api/users/check-user`. */
export const checkUserRequestSchema = z.object({ email: emailSchema });
export const checkUserResponseSchema = z.object({
  exists: z.boolean(),
  payload: z.object({ role: z.enum(ROLES) }).optional(),
});

/**
 * `POST /api/users/register`, the spec's payload plus the three fields the old client dropped.
 * A form sign-up needs a password; a provider sign-up ('google', or 'oidc' for the institution's
 * own provider) completes the profile of the identity that is signed in and has none.
 */
export const registerRequestSchema = z
  .object({
    firstName: requiredText('First name'),
    lastName: requiredText('Last name'),
    email: emailSchema,
    password: passwordSchema.optional(),
    phoneNumber: phoneSchema,
    role: z.enum(SIGNUP_ROLES, { message: 'Choose student or faculty' }),
    institutionName: requiredText('Institution name', 200),
    academicProfile: z
      .object({ fields: tagsSchema, interests: tagsSchema })
      .default({ fields: [], interests: [] }),
    signupMethod: z
      .enum(['form', 'google', 'oidc'], { message: 'Unknown sign-up method' })
      .default('form'),
    department: optionalText('Department', 200),
    studentId: optionalText('Student ID', 50),
    graduationYear: graduationYearSchema.optional(),
  })
  .superRefine((body, context) => {
    if (body.signupMethod === 'form' && body.password === undefined) {
      context.addIssue({ code: 'custom', path: ['password'], message: 'Password is required' });
    }
  });
export type RegisterRequest = z.infer<typeof registerRequestSchema>;

export const registerResponseSchema = z.object({
  success: z.boolean(),
  user: z.object({ role: z.enum(ROLES) }),
  message: z.string(),
});

/** `POST /api/users/login`; `rememberMe` keeps the session for 30 days instead of the browser session. */
export const loginRequestSchema = z.object({
  email: emailSchema,
  password: z
    .string({ message: 'Password is required' })
    .min(1, 'Password is required')
    .max(1024, 'Password is too long'),
  rememberMe: z.boolean().optional().default(false),
});
export const loginResponseSchema = z.object({
  success: z.boolean(),
  payload: z.object({ role: z.enum(ROLES) }).optional(),
  message: z.string(),
});

/** `POST /api/users/signin`: the signed-in user's own summary, looked up by their e-mail. */
export const signinRequestSchema = z.object({ email: emailSchema });
export const signinResponseSchema = z.object({
  success: z.boolean(),
  payload: z
    .object({
      role: z.enum(ROLES),
      email: z.string(),
      firstName: z.string(),
      phoneNumber: z.string(),
    })
    .optional(),
  message: z.string().optional(),
});

/** The signed-in user as the web app sees them. */
export const currentUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  name: z.string(),
  role: z.enum(ROLES),
  phoneNumber: z.string(),
  institutionName: z.string(),
  department: z.string(),
  studentId: z.string(),
  graduationYear: z.number().nullable(),
  academicProfile: z.object({ fields: z.array(z.string()), interests: z.array(z.string()) }),
  signupMethod: z.enum(['form', 'google', 'oidc', 'command']),
  profileCompleted: z.boolean(),
  /** The forum's chosen username; empty until chosen (the forum then suggests the first name). */
  chatUsername: z.string(),
  /** Set while a faculty sign-up waits for a librarian's approval (the account is a student). */
  facultyRequest: z.literal('waiting').optional(),
  /**
   * Whether the e-mail address is verified (ours, decision 026): a password sign-up reserves,
   * files requests and chats only once it has opened the link mailed to it.
   */
  emailVerified: z.boolean().optional(),
});
export type CurrentUser = z.infer<typeof currentUserSchema>;

/**
 * `GET /api/users/me`: the signed-in user, or `user: null` for a guest (a 200 either way: asking
 * who one is is not an error, and a guest's browser console stays clean).
 */
export const meResponseSchema = z.object({ user: currentUserSchema.nullable() });

/**
 * `PATCH /api/users/me` (issue 21, "My account"): any of one's own profile fields. The e-mail
 * address, role and sign-up method are not one's own to change here.
 */
export const profileUpdateSchema = z
  .object({
    firstName: requiredText('First name'),
    lastName: requiredText('Last name'),
    phoneNumber: phoneSchema,
    institutionName: requiredText('Institution name', 200),
    department: optionalText('Department', 200),
    studentId: optionalText('Student ID', 50),
    graduationYear: graduationYearSchema.nullable(),
    academicProfile: z.object({ fields: tagsSchema, interests: tagsSchema }),
  })
  .partial()
  .refine((patch) => Object.keys(patch).length > 0, 'Nothing to change: send at least one field');
export type ProfileUpdate = z.infer<typeof profileUpdateSchema>;

/** `POST /api/users/change-password`: the current password, and the new one. */
export const changePasswordRequestSchema = z.object({
  currentPassword: z
    .string({ message: 'Your current password is required' })
    .min(1, 'Your current password is required')
    .max(1024, 'Password is too long'),
  newPassword: passwordSchema,
});
export type ChangePasswordRequest = z.infer<typeof changePasswordRequestSchema>;
export const changePasswordResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});

/** What one is told once the password is changed. */
export const PASSWORD_CHANGED_MESSAGE =
  'Your password is changed. You stay signed in here; every other browser is signed out.';

/** `POST /api/users/logout`. */
export const logoutResponseSchema = z.object({ success: z.literal(true) });

/** `GET /api/users/providers`: which external sign-in buttons work on this server. */
export const providersResponseSchema = z.object({
  google: z.boolean(),
  oidc: z.object({ label: z.string() }).nullable(),
});

/** The screen each role lands on after signing in. */
export function homePathFor(role: Role): '/userprofile' | '/facultyprofile' {
  return role === 'student' ? '/userprofile' : '/facultyprofile';
}

/** `POST /api/users/forgot-password`: the same answer whether the account exists or not. */
export const forgotPasswordRequestSchema = z.object({ email: emailSchema });
export const forgotPasswordResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});

/** `POST /api/users/reset-password`: a new password for the account the e-mailed link names. */
export const resetPasswordRequestSchema = z.object({
  token: z
    .string({ message: 'The reset link is incomplete' })
    .min(10, 'The reset link is incomplete')
    .max(200),
  password: passwordSchema,
});
export const resetPasswordResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});

/** What the forgot-password screen says after a request, whatever the e-mail. */
export const FORGOT_PASSWORD_MESSAGE =
  'If an account exists for that e-mail, we have sent it a link to reset the password. The link works for 60 minutes.';

/**
 * The code of the refusal an account gets when it reserves, files a request, creates a chat room
 * or sends a message before verifying its e-mail address (decision 026); HTTP answers it in the
 * error shape's `code`, the chat in the acknowledgement's.
 */
export const EMAIL_NOT_VERIFIED_CODE = 'EMAIL_NOT_VERIFIED';

/** What that refusal says: where the link went, and where to ask for it again. */
export function emailNotVerifiedMessage(email: string): string {
  return `Verify your e-mail address first: we sent a link to ${email}. You can send it again from your home screen.`;
}

/**
 * The query a verification link brings the person back with, to their home
 * (`/userprofile?verified=email`); a link that failed adds better-auth's `error=<CODE>`.
 */
export const EMAIL_VERIFIED_QUERY = { name: 'verified', value: 'email' } as const;

/** Where the verification link of an account with `role` lands, signed in (decision 026). */
export function emailVerifiedLanding(role: Role): string {
  return `${homePathFor(role)}?${EMAIL_VERIFIED_QUERY.name}=${EMAIL_VERIFIED_QUERY.value}`;
}

/** `POST /api/users/verification-email`: mails the signed-in account its verification link again. */
export const verificationEmailResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});

/** How long a verification link works. */
export const VERIFICATION_LINK_HOURS = 24;

/** The name the forum shows on the messages of a deleted account, and the desk's records. */
export const DELETED_ACCOUNT_NAME = 'Deleted account';

/**
 * `GET /api/users/me/deletion` (issue 21, "Delete my account"): what deleting one's account would
 * do, said before it is done. Open loans stop it; the rest are what goes (counts) and what stays.
 */
export const accountDeletionPreviewSchema = z.object({
  /** Books out on loan: the account cannot be deleted until they are returned at the desk. */
  openLoans: z.array(z.object({ title: z.string(), dueAt: z.string() })),
  /** Active reservations, cancelled: their copies go to the next person waiting. */
  reservations: z.number().int(),
  /** Places in waiting lists (and offers), given up. */
  holds: z.number().int(),
  /** Resource requests filed, removed. */
  requests: z.number().int(),
  /** Forum rooms created, removed with every message in them. */
  roomsCreated: z.number().int(),
  /** Forum messages sent in other people's rooms: they stay, shown as from `messagesShownAs`. */
  messagesSent: z.number().int(),
  messagesShownAs: z.string(),
  /** Course materials published: they stay in the catalogue. */
  materialsPublished: z.number().int(),
  /** What confirms it: the password, or (an account without one) the e-mail address typed. */
  confirmWith: z.enum(['password', 'email']),
  /** Refused because this is the last librarian (nobody could manage the library). */
  lastLibrarian: z.boolean(),
});
export type AccountDeletionPreview = z.infer<typeof accountDeletionPreviewSchema>;

/** `DELETE /api/users/me`: the password, or for an account without one its e-mail typed again. */
export const accountDeletionRequestSchema = z.object({
  password: z.string().max(1024, 'Password is too long').optional(),
  confirmEmail: z.string().max(320, 'E-mail is too long').optional(),
});
export type AccountDeletionRequest = z.infer<typeof accountDeletionRequestSchema>;
export const accountDeletionResponseSchema = z.object({
  success: z.literal(true),
  message: z.string(),
});

/** What one is told once the account is gone. */
export const ACCOUNT_DELETED_MESSAGE =
  'Your account is deleted and you are signed out. Thank you for using the library.';
