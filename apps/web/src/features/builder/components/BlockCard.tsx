import { SOURCE_LABELS, type Source, sourceHealthKey } from '@digest/contracts';
import { type BlockContext, sourceTitle } from '@digest/email/blocks';
import { useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import {
  ArrowDownIcon,
  ArrowUpIcon,
  CopyIcon,
  EditIcon,
  GripIcon,
  TrashIcon,
} from '#web/components/ui/icons';
import { hasHealthNews, SourceHealthLine, SourceIcon, useDigestHealth } from '#web/features/digests';
import { useBuilderStore } from '../store';
import styles from './BlockCard.module.css';
import { BlockPreview } from './BlockPreview';

export interface BlockActions {
  onMoveUp?: (() => void) | undefined;
  onMoveDown?: (() => void) | undefined;
  onDuplicate?: (() => void) | undefined;
  onEdit: () => void;
  onDelete: () => void;
}

/** A saved block: its toolbar (drag, move, duplicate, edit, delete) over its live preview. */
export function SortableBlockCard({
  id,
  source,
  context,
  editing,
  actions,
}: {
  id: string;
  source: Source;
  context: BlockContext;
  /** The sidebar is editing this block: the preview shows the unsaved settings. */
  editing: boolean;
  actions: BlockActions;
}) {
  const sortable = useSortable({ id });
  const title = sourceTitle(source);
  return (
    <article
      ref={sortable.setNodeRef}
      style={{ transform: CSS.Translate.toString(sortable.transform), transition: sortable.transition }}
      className={[styles.card, editing ? styles.editing : '', sortable.isDragging ? styles.dragging : '']
        .filter(Boolean)
        .join(' ')}
      aria-label={title}
      data-testid="source-block"
      data-type={source.type}
    >
      <header className={styles.toolbar}>
        <button
          type="button"
          className={`${styles.tool} ${styles.handle}`}
          aria-label={`Drag to reorder: ${title}`}
          {...sortable.attributes}
          {...sortable.listeners}
        >
          <GripIcon />
        </button>
        <SourceIcon type={source.type} />
        <span className={styles.kind}>
          {SOURCE_LABELS[source.type]}
          {editing ? <span className={styles.badge}>Editing</span> : null}
        </span>
        <span className={styles.tools}>
          <Tool label={`Move up: ${title}`} onClick={actions.onMoveUp}>
            <ArrowUpIcon />
          </Tool>
          <Tool label={`Move down: ${title}`} onClick={actions.onMoveDown}>
            <ArrowDownIcon />
          </Tool>
          <Tool label={`Duplicate: ${title}`} onClick={actions.onDuplicate}>
            <CopyIcon />
          </Tool>
          <Tool label={`Edit: ${title}`} onClick={actions.onEdit}>
            <EditIcon />
          </Tool>
          <Tool label={`Delete: ${title}`} onClick={actions.onDelete} danger>
            <TrashIcon />
          </Tool>
        </span>
      </header>
      <BlockHealth source={source} onEdit={actions.onEdit} />
      <BlockPreview source={source} context={context} />
    </article>
  );
}

/** Issue 17: in a saved digest, what is wrong with this source and what to do, above its preview. */
function BlockHealth({ source, onEdit }: { source: Source; onEdit: () => void }) {
  const digestId = useBuilderStore((state) => state.editDigestId);
  const health = useDigestHealth(digestId ?? '', digestId !== null);
  const key = sourceHealthKey(source);
  const mine = health.data?.sources.find((candidate) => candidate.key === key);
  if (!mine || !hasHealthNews(mine)) return null;
  return (
    <div className={styles.health}>
      <SourceHealthLine health={mine} onEdit={onEdit} showTitle={false} />
    </div>
  );
}

/** The source being added, previewed where it will go before it is saved. */
export function NewBlockCard({ source, context }: { source: Source | null; context: BlockContext }) {
  return (
    <article
      className={`${styles.card} ${styles.editing}`}
      aria-label="New source"
      data-testid="new-source-block"
    >
      <header className={styles.toolbar}>
        {source ? <SourceIcon type={source.type} /> : null}
        <span className={styles.kind}>
          {source ? SOURCE_LABELS[source.type] : 'New source'}
          <span className={styles.badge}>Not saved yet</span>
        </span>
      </header>
      {source ? (
        <BlockPreview source={source} context={context} />
      ) : (
        <p className={styles.hint}>Choose its settings in the sidebar to see it here.</p>
      )}
    </article>
  );
}

function Tool({
  label,
  onClick,
  danger = false,
  children,
}: {
  label: string;
  /** Absent when the action is not possible here (first block cannot move up, 20 blocks cannot grow). */
  onClick: (() => void) | undefined;
  danger?: boolean;
  children: React.ReactNode;
}) {
  return (
    <button
      type="button"
      className={danger ? `${styles.tool} ${styles.danger}` : styles.tool}
      aria-label={label}
      title={label.split(':')[0]}
      disabled={!onClick}
      onClick={onClick}
    >
      {children}
    </button>
  );
}
