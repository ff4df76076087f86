import type { RegisterRequest } from '../../contract/http/users.ts';

let counter = 0;

/** A valid form registration, unique per call, with any field overridden. */
export function registrationFactory(
  overrides: Partial<RegisterRequest> & Record<string, unknown> = {},
) {
  counter += 1;
  return {
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: `student${counter}.${Date.now()}@uni.example`,
    password: 'correct horse battery',
    phoneNumber: '+1 555 010 2000',
    role: 'student',
    institutionName: 'Campus University',
    academicProfile: {
      fields: ['Mathematics', ' Computing ', 'mathematics', ''],
      interests: ['Engines'],
    },
    signupMethod: 'form',
    department: 'Mathematics',
    studentId: 'S-1001',
    graduationYear: 2027,
    ...overrides,
  };
}
