// @vitest-environment happy-dom
import {
  INVALID_EMAIL_MESSAGE,
  LOGIN_PASSWORD_MESSAGE,
  REQUIRED_MESSAGE,
  SIGNUP_PASSWORD_MESSAGE,
  type SignupBody,
  signupSchema,
  TERMS_REQUIRED_MESSAGE,
} from '@digest/contracts';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Checkbox } from '#web/components/ui/Checkbox';
import { TextField } from '#web/components/ui/TextField';
import { useSchemaForm } from './use-schema-form';

afterEach(cleanup);

function SignupLike({ onValid }: { onValid: (body: SignupBody) => void }) {
  const form = useSchemaForm(signupSchema, { email: '', password: '', confirmed: false });
  return (
    <form onSubmit={form.handleSubmit(onValid)} noValidate>
      <TextField label="Email" {...form.text('email')} />
      <TextField label="Password" type="password" {...form.text('password')} />
      <Checkbox label="I agree" {...form.checkbox('confirmed')} />
      <button type="submit">Send</button>
    </form>
  );
}

const alerts = () => screen.queryAllByRole('alert').map((alert) => alert.textContent);
const type = (label: string, value: string) =>
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
const submit = () => fireEvent.click(screen.getByRole('button', { name: 'Send' }));

describe('a form checked by its contract schema', () => {
  it('checks nothing before the first submit', () => {
    render(<SignupLike onValid={vi.fn()} />);
    type('Email', 'not-an-email');
    expect(alerts()).toEqual([]);
  });

  it('on a submit with wrong fields shows each field’s first message, sends nothing and focuses the first', () => {
    const onValid = vi.fn();
    render(<SignupLike onValid={onValid} />);
    submit();
    expect(alerts()).toEqual([REQUIRED_MESSAGE, REQUIRED_MESSAGE, TERMS_REQUIRED_MESSAGE]);
    expect(onValid).not.toHaveBeenCalled();
    expect(document.activeElement).toBe(screen.getByLabelText('Email'));
    expect(screen.getByLabelText('Email').getAttribute('aria-invalid')).toBe('true');

    type('Email', 'a@example.com');
    submit();
    expect(alerts()).toEqual([REQUIRED_MESSAGE, TERMS_REQUIRED_MESSAGE]);
    expect(document.activeElement).toBe(screen.getByLabelText('Password'));
  });

  it('after a submit, a field’s message follows its value as it is edited, the others’ stay', () => {
    render(<SignupLike onValid={vi.fn()} />);
    submit();
    type('Email', 'someone@ example.com');
    expect(alerts()).toEqual([INVALID_EMAIL_MESSAGE, REQUIRED_MESSAGE, TERMS_REQUIRED_MESSAGE]);
    type('Email', 'someone@example.com');
    expect(alerts()).toEqual([REQUIRED_MESSAGE, TERMS_REQUIRED_MESSAGE]);
    fireEvent.click(screen.getByLabelText('I agree'));
    expect(alerts()).toEqual([REQUIRED_MESSAGE]);
  });

  it('gives a valid submit the schema’s output', () => {
    const onValid = vi.fn();
    render(<SignupLike onValid={onValid} />);
    type('Email', '  someone@example.com ');
    type('Password', 'Passw0rd!');
    fireEvent.click(screen.getByLabelText('I agree'));
    submit();
    expect(alerts()).toEqual([]);
    expect(onValid).toHaveBeenCalledWith({
      email: 'someone@example.com',
      password: 'Passw0rd!',
      confirmed: true,
    });
  });

  it('shows the schema’s own wording for each rule', () => {
    render(<SignupLike onValid={vi.fn()} />);
    type('Password', 'password1');
    submit();
    expect(alerts()).toContain(SIGNUP_PASSWORD_MESSAGE);
    expect(alerts()).not.toContain(LOGIN_PASSWORD_MESSAGE);
  });
});
