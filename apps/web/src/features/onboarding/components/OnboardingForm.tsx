import {
  ONBOARDING_BOTH_MESSAGE,
  ONBOARDING_REQUIRED_MESSAGE,
  type OnboardingInput,
  onboardingSchema,
  type ProfilePatch,
  type User,
} from '@digest/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { useForm } from 'react-hook-form';
import { Alert } from '#web/components/ui/Alert';
import { Button } from '#web/components/ui/Button';
import { TextField } from '#web/components/ui/TextField';
import { browserTimeZone, timezoneValue, useUpdateProfile } from '#web/features/profile';
import { ApiError, errorMessage } from '#web/lib/api-client';
import { notifyError } from '#web/lib/notify';
import styles from './OnboardingForm.module.css';

type OnboardingValues = { fullName: string; username: string };

/** docs/product.md §5 onboarding: full name and username, with the combined message when either is missing. */
export function OnboardingForm({ user }: { user: User }) {
  const update = useUpdateProfile();
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors },
  } = useForm<OnboardingValues, unknown, OnboardingInput>({
    resolver: zodResolver(onboardingSchema),
    defaultValues: { fullName: user.fullName ?? '', username: user.username ?? '' },
  });

  const missing =
    errors.fullName?.message === ONBOARDING_REQUIRED_MESSAGE ||
    errors.username?.message === ONBOARDING_REQUIRED_MESSAGE;

  const onSubmit = handleSubmit((values) => {
    const patch: ProfilePatch = { fullName: values.fullName, username: values.username };
    // docs/product.md §4: the browser's zone is saved for a user who has none.
    if (!user.timezone) patch.timezone = timezoneValue(browserTimeZone());
    update.mutate(patch, {
      onError: (error) => {
        const message = errorMessage(error);
        if (error instanceof ApiError && error.code === 'USERNAME_TAKEN') {
          setError('username', { message }, { shouldFocus: true });
        }
        notifyError(message);
      },
    });
  });

  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate aria-label="Finish signing up">
      {missing ? <Alert>{ONBOARDING_BOTH_MESSAGE}</Alert> : null}
      <TextField
        label="Full name"
        autoComplete="name"
        error={errors.fullName?.message}
        {...register('fullName')}
      />
      <TextField
        label="Username"
        autoComplete="username"
        autoCapitalize="none"
        spellCheck={false}
        hint="Letters and numbers only. It also names your newsletter address."
        error={errors.username?.message}
        {...register('username')}
      />
      <Button type="submit" fullWidth loading={update.isPending}>
        Continue
      </Button>
    </form>
  );
}
