import type { User } from '@digest/contracts';
import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { Link } from 'react-router';
import { Avatar } from '#web/components/ui/Avatar';
import { ChevronDownIcon, EditIcon, LogOutIcon, MailIcon, SparkIcon } from '#web/components/ui/icons';
import { SiteLink } from '#web/components/ui/SiteLink';
import { useLogout } from '#web/features/auth';
import { paths } from '#web/lib/paths';
import { useSiteLinks } from '#web/lib/site';
import styles from './ProfileMenu.module.css';

/**
 * docs/product.md §2: avatar, full name, username, Edit profile, Digest Updates (the changelog: /changelog, or
 * CHANGELOG_URL), Support (a mail link to SUPPORT_EMAIL), Log out.
 */
export function ProfileMenu({ user }: { user: User }) {
  const { logOut } = useLogout();
  const { changelogUrl, supportMailto } = useSiteLinks();
  return (
    // Not modal: the page stays scrollable and no scroll-lock style is injected.
    <DropdownMenu.Root modal={false}>
      {/*
        The name is the button's own text, so it begins with what desktops show (WCAG 2.5.3, label in name);
        below desktop width only the avatar shows and the text stays for assistive technology alone.
      */}
      <DropdownMenu.Trigger className={styles.trigger}>
        <Avatar src={user.profileImg} name={user.fullName} size="small" />
        <span className={styles.triggerName}>{user.fullName ?? user.email}</span>
        <span className="visually-hidden">{' profile menu'}</span>
        <ChevronDownIcon className={styles.chevron} />
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={styles.content} align="end" sideOffset={8}>
          <div className={styles.identity}>
            <Avatar src={user.profileImg} name={user.fullName} />
            <div className={styles.names}>
              <span className={styles.fullName}>{user.fullName}</span>
              <span className={styles.username}>@{user.username}</span>
            </div>
          </div>
          <DropdownMenu.Separator className={styles.separator} />
          <DropdownMenu.Item asChild className={styles.item}>
            <Link to={paths.editProfile}>
              <EditIcon />
              Edit profile
            </Link>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={styles.item}>
            <SiteLink href={changelogUrl}>
              <SparkIcon />
              Digest Updates
            </SiteLink>
          </DropdownMenu.Item>
          <DropdownMenu.Item asChild className={styles.item}>
            <a href={supportMailto}>
              <MailIcon />
              Support
            </a>
          </DropdownMenu.Item>
          <DropdownMenu.Separator className={styles.separator} />
          <DropdownMenu.Item className={styles.item} onSelect={() => void logOut()}>
            <LogOutIcon />
            Log out
          </DropdownMenu.Item>
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
