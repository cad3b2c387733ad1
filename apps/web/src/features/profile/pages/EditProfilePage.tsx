import { useEffect, useRef, useState } from 'react';
import { Avatar } from '#web/components/ui/Avatar';
import { Button } from '#web/components/ui/Button';
import { ConfirmDialog } from '#web/components/ui/ConfirmDialog';
import { PageHeader } from '#web/components/ui/PageHeader';
import { useDownloadArchive } from '#web/features/portability';
import { paths } from '#web/lib/paths';
import { useCurrentUser } from '#web/lib/session/use-me';
import { useDeletePhoto } from '../api/use-profile';
import { DeleteAccountDialog } from '../components/DeleteAccountDialog';
import { EmailSection } from '../components/EmailSection';
import { PhotoModal } from '../components/PhotoModal';
import { ProfileForm } from '../components/ProfileForm';
import styles from './EditProfilePage.module.css';

/** docs/product.md §4: the remove-photo confirmation closes 300 ms after the photo is gone. */
const MODAL_CLOSE_DELAY_MS = 300;

/** docs/product.md §2 "Edit profile". */
export function EditProfilePage() {
  const user = useCurrentUser();
  const [photoOpen, setPhotoOpen] = useState(false);
  const [removeOpen, setRemoveOpen] = useState(false);
  const [deleteOpen, setDeleteOpen] = useState(false);
  const removePhoto = useDeletePhoto();
  const archive = useDownloadArchive();
  const closeTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(closeTimer.current), []);

  return (
    <>
      <title>Edit profile · Digest</title>
      <PageHeader title="Edit profile" mobileBackTo={paths.digests} backLabel="Back to Digests" />
      <div className={styles.sections}>
        <section className={styles.card} aria-labelledby="photo-title">
          <h2 id="photo-title" className={styles.cardTitle}>
            Photo
          </h2>
          <div className={styles.photoRow}>
            <Avatar src={user.profileImg} name={user.fullName} size="large" />
            <div className={styles.photoActions}>
              <Button variant="secondary" small onClick={() => setPhotoOpen(true)}>
                Edit
              </Button>
              {user.profileImg ? (
                <Button variant="ghost" small className={styles.remove} onClick={() => setRemoveOpen(true)}>
                  Remove
                </Button>
              ) : null}
            </div>
          </div>
        </section>

        <section className={styles.card} aria-labelledby="details-title">
          <h2 id="details-title" className={styles.cardTitle}>
            Your details
          </h2>
          <ProfileForm user={user} />
        </section>

        <section className={styles.card} aria-labelledby="email-title">
          <h2 id="email-title" className={styles.cardTitle}>
            E-mail address
          </h2>
          <EmailSection user={user} />
        </section>

        <section className={styles.card} aria-labelledby="data-title">
          <h2 id="data-title" className={styles.cardTitle}>
            Your data
          </h2>
          <p className={styles.muted}>
            One JSON file with your profile, every Digest with its settings, friends and issues, and your
            drafts.
          </p>
          <div>
            <Button variant="secondary" loading={archive.isPending} onClick={() => archive.mutate()}>
              Download all my data (JSON)
            </Button>
          </div>
        </section>

        <section className={`${styles.card} ${styles.danger}`} aria-labelledby="delete-title">
          <h2 id="delete-title" className={styles.cardTitle}>
            Delete account
          </h2>
          <p className={styles.muted}>
            This deletes your profile, your digests and everything else that belongs to your account. It
            cannot be undone.
          </p>
          <div>
            <Button variant="danger" onClick={() => setDeleteOpen(true)}>
              Delete account
            </Button>
          </div>
        </section>
      </div>

      <PhotoModal open={photoOpen} onOpenChange={setPhotoOpen} />
      <ConfirmDialog
        open={removeOpen}
        onOpenChange={setRemoveOpen}
        title="Are you sure you remove the photo?"
        confirmLabel="Remove"
        pending={removePhoto.isPending}
        onConfirm={() =>
          removePhoto.mutate(undefined, {
            onSuccess: () => {
              closeTimer.current = setTimeout(() => setRemoveOpen(false), MODAL_CLOSE_DELAY_MS);
            },
          })
        }
      />
      <DeleteAccountDialog user={user} open={deleteOpen} onOpenChange={setDeleteOpen} />
    </>
  );
}
