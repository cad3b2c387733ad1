import { NavLink, Outlet } from 'react-router';
import { Button } from '#web/components/ui/Button';
import { EditIcon, LinkIcon, LogOutIcon, UserIcon } from '#web/components/ui/icons';
import { useLogout } from '#web/features/auth';
import { paths } from '#web/lib/paths';
import styles from './SettingsLayout.module.css';

function linkClass({ isActive }: { isActive: boolean }) {
  return isActive ? `${styles.link} ${styles.active}` : styles.link;
}

/** docs/product.md §2 "Settings area": header Settings, a navigation list and Log Out, beside the page. */
export function SettingsLayout() {
  const { logOut, pending } = useLogout();
  return (
    <div className={styles.layout}>
      <aside className={styles.aside} aria-labelledby="settings-title">
        <h2 id="settings-title" className={styles.title}>
          Settings
        </h2>
        <nav aria-label="Settings">
          <ul className={styles.list}>
            <li>
              <NavLink className={linkClass} to={paths.editProfile}>
                <EditIcon className={styles.icon} />
                Edit profile
              </NavLink>
            </li>
            <li>
              <NavLink className={linkClass} to={paths.profileView}>
                <UserIcon className={styles.icon} />
                Profile
              </NavLink>
            </li>
            <li>
              <NavLink className={linkClass} to={paths.accounts}>
                <LinkIcon className={styles.icon} />
                Connected accounts
              </NavLink>
            </li>
          </ul>
        </nav>
        <Button variant="ghost" className={styles.logout} onClick={() => void logOut()} loading={pending}>
          <LogOutIcon className={styles.icon} />
          Log Out
        </Button>
      </aside>
      <div className={styles.content}>
        <Outlet />
      </div>
    </div>
  );
}
