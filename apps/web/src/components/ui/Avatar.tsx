import { useState } from 'react';
import styles from './Avatar.module.css';

interface AvatarProps {
  /** Photo URL; without one the initials are shown. */
  src: string | null | undefined;
  name: string | null | undefined;
  size?: 'small' | 'medium' | 'large';
  className?: string;
}

function initials(name: string | null | undefined): string {
  const words = (name ?? '').trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return letters.map((word) => [...(word ?? '')][0]?.toUpperCase() ?? '').join('') || '?';
}

/**
 * The round photo, or the initials when there is none or it cannot be loaded (a provider's picture may be
 * gone or unreachable). Decorative: the name is always written next to it.
 */
export function Avatar({ src, name, size = 'medium', className }: AvatarProps) {
  const classes = [styles.avatar, styles[size], className ?? ''].filter(Boolean).join(' ');
  const [failedSrc, setFailedSrc] = useState<string | null>(null);
  if (src && src !== failedSrc) {
    return <img className={classes} src={src} alt="" onError={() => setFailedSrc(src)} />;
  }
  return (
    <span className={`${classes} ${styles.initials}`} aria-hidden="true">
      {initials(name)}
    </span>
  );
}
