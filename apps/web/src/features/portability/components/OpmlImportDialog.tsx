import { OPML_MAX_BYTES, OPML_MESSAGES, type OpmlFeed, type OpmlImport } from '@digest/contracts';
import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { Alert } from '#web/components/ui/Alert';
import { Button } from '#web/components/ui/Button';
import { Checkbox } from '#web/components/ui/Checkbox';
import { Modal } from '#web/components/ui/Modal';
import { errorMessage } from '#web/lib/api-client';
import { importOpml } from '../api/portability-api';
import {
  chosenFeeds,
  feedKey,
  feedsProblem,
  folderDigestsBody,
  folderProblem,
  initialFolderSelection,
} from '../lib/selection';
import { useCreateFolderDigests } from '../use-portability';
import styles from './OpmlImportDialog.module.css';

const FOLDERLESS = 'Not in a folder';

type OpmlImportDialogProps = {
  open: boolean;
  onOpenChange: (open: boolean) => void;
} & (
  | {
      /** Builder: tick feeds, add them as RSS blocks. */
      mode: 'feeds';
      /** Blocks the digest can still take. */
      room: number;
      onAdd: (feeds: OpmlFeed[]) => void;
    }
  | { mode: 'folders' }
);

/**
 * "Import OPML": choose a feed reader's export, see its folders and feeds (those that cannot be added
 * greyed out with the reason), then either tick feeds into the digest being built or make one digest per
 * ticked folder. Errors show next to the file field or the folder they concern.
 */
export function OpmlImportDialog(props: OpmlImportDialogProps) {
  const { open, onOpenChange } = props;
  const [preview, setPreview] = useState<OpmlImport | null>(null);
  const [fileError, setFileError] = useState<string | null>(null);
  const [folders, setFolders] = useState<Set<number>>(new Set());
  const [feeds, setFeeds] = useState<Set<string>>(new Set());
  const create = useCreateFolderDigests();
  const reading = useMutation({
    mutationFn: importOpml,
    onSuccess: (answer) => {
      setPreview(answer);
      if (props.mode === 'folders') {
        const initial = initialFolderSelection(answer);
        setFolders(initial.folders);
        setFeeds(initial.feeds);
      } else {
        setFeeds(new Set());
      }
    },
    onError: (error) => setFileError(errorMessage(error)),
  });
  const fileId = useId();
  const fileHintId = useId();

  const reset = () => {
    setPreview(null);
    setFileError(null);
    setFolders(new Set());
    setFeeds(new Set());
    create.reset();
  };
  const close = (next: boolean) => {
    if (!next) reset();
    onOpenChange(next);
  };

  const choose = (file: File | undefined) => {
    setPreview(null);
    setFileError(null);
    create.reset();
    if (!file) return;
    // The server refuses it too; checked here so a large file is not uploaded for nothing.
    if (file.size > OPML_MAX_BYTES) return setFileError(OPML_MESSAGES.tooLarge);
    if (file.size === 0) return setFileError(OPML_MESSAGES.empty);
    reading.mutate(file);
  };

  const toggle = <T,>(set: Set<T>, value: T, on: boolean) => {
    const next = new Set(set);
    if (on) next.add(value);
    else next.delete(value);
    return next;
  };

  const picked = preview ? chosenFeeds(preview, feeds) : [];
  const body = preview ? folderDigestsBody(preview, folders, feeds) : { folders: [] };
  const problems = preview
    ? preview.folders.map((folder, f) =>
        folders.has(f)
          ? folderProblem({
              name: folder.name,
              feeds: folder.feeds.filter((_, n) => feeds.has(feedKey(f, n))),
            })
          : null,
      )
    : [];
  const addProblem = props.mode === 'feeds' ? feedsProblem(picked.length, props.room) : null;

  const submit = () => {
    if (!preview) return;
    if (props.mode === 'feeds') {
      props.onAdd(picked);
      close(false);
    } else {
      create.mutate(body, { onSuccess: () => close(false) });
    }
  };

  const submitLabel =
    props.mode === 'feeds'
      ? `Add ${picked.length} ${picked.length === 1 ? 'feed' : 'feeds'}`
      : `Create ${body.folders.length} ${body.folders.length === 1 ? 'digest' : 'digests'}`;
  const blocked =
    props.mode === 'feeds'
      ? picked.length === 0 || addProblem !== null
      : body.folders.length === 0 || problems.some(Boolean);

  return (
    <Modal
      open={open}
      onOpenChange={close}
      title="Import OPML"
      description={
        props.mode === 'feeds'
          ? 'Add feeds from the OPML export of your feed reader.'
          : 'Make one Digest of each folder of your feed reader’s OPML export (3 to 20 feeds each).'
      }
    >
      <div className={styles.file}>
        <label htmlFor={fileId} className={styles.fileLabel}>
          OPML file
        </label>
        <input
          id={fileId}
          type="file"
          accept=".opml,.xml,text/x-opml,text/xml,application/xml"
          className={styles.fileInput}
          aria-describedby={fileHintId}
          aria-invalid={fileError ? true : undefined}
          onChange={(event) => choose(event.currentTarget.files?.[0])}
        />
        <p id={fileHintId} className={styles.hint}>
          In Feedly, Inoreader, NetNewsWire, Miniflux and most readers: Export or Settings, then OPML. At most
          1 MB.
        </p>
        {reading.isPending ? (
          <p className={styles.hint} role="status">
            Reading the file…
          </p>
        ) : null}
        {fileError ? <Alert>{fileError}</Alert> : null}
      </div>

      {preview ? (
        <form
          className={styles.preview}
          onSubmit={(event) => {
            event.preventDefault();
            submit();
          }}
        >
          <p className={styles.summary} role="status">
            {preview.title ? `${preview.title}: ` : ''}
            {preview.feedCount} {preview.feedCount === 1 ? 'feed' : 'feeds'}
            {preview.refusedCount > 0 ? `, ${preview.refusedCount} that cannot be added` : ''}
          </p>
          <div className={styles.folders}>
            {preview.folders.map((folder, f) => {
              const name = folder.name || FOLDERLESS;
              const inUse = props.mode === 'feeds' || folders.has(f);
              return (
                <fieldset key={folder.name} className={styles.folder}>
                  <legend className={styles.legend}>
                    {props.mode === 'folders' ? (
                      <Checkbox
                        label={<strong>{name}</strong>}
                        checked={folders.has(f)}
                        disabled={folder.feeds.length === 0}
                        onChange={(event) => setFolders(toggle(folders, f, event.currentTarget.checked))}
                        error={problems[f] ?? undefined}
                      />
                    ) : (
                      <strong>{name}</strong>
                    )}
                  </legend>
                  <ul className={styles.feeds}>
                    {folder.feeds.map((feed, n) => (
                      <li key={feed.xmlUrl}>
                        <Checkbox
                          label={
                            <>
                              {feed.title}
                              <span className={styles.url}>{feed.xmlUrl}</span>
                            </>
                          }
                          checked={feeds.has(feedKey(f, n))}
                          disabled={!inUse}
                          onChange={(event) =>
                            setFeeds(toggle(feeds, feedKey(f, n), event.currentTarget.checked))
                          }
                        />
                      </li>
                    ))}
                    {folder.refused.map((feed) => (
                      <li key={`refused-${feed.xmlUrl}`} className={styles.refused}>
                        <span>{feed.title}</span>
                        <span className={styles.url}>{feed.xmlUrl}</span>
                        <span className={styles.reason}>Cannot be added: {feed.reason}</span>
                      </li>
                    ))}
                  </ul>
                </fieldset>
              );
            })}
          </div>
          {addProblem ? <Alert>{addProblem}</Alert> : null}
          {create.isError ? <Alert>{errorMessage(create.error)}</Alert> : null}
          <div className={styles.actions}>
            <Button type="button" variant="secondary" onClick={() => close(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={blocked} loading={create.isPending}>
              {submitLabel}
            </Button>
          </div>
        </form>
      ) : null}
    </Modal>
  );
}
