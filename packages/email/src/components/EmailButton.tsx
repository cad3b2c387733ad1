import { Button } from '@react-email/components';
import type { ReactNode } from 'react';
import { emailClass as c, emailTheme as t } from './theme';

export interface EmailButtonProps {
  href: string;
  children: ReactNode;
}

/** A call-to-action link styled as a button (a plain `<a>`, so it works in every client and in text). */
export function EmailButton({ href, children }: EmailButtonProps) {
  return (
    <Button href={href} className={c.button} style={style}>
      {children}
    </Button>
  );
}

const style = {
  backgroundColor: t.light.button,
  borderRadius: '6px',
  color: t.light.buttonText,
  fontSize: '16px',
  fontWeight: 600,
  lineHeight: '20px',
  padding: '12px 24px',
  textDecoration: 'none',
  textAlign: 'center',
  display: 'inline-block',
} as const;
