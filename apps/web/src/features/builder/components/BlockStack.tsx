import { DIGEST_MESSAGES, MAX_SOURCES } from '@digest/contracts';
import type { BlockContext } from '@digest/email/blocks';
import {
  closestCenter,
  DndContext,
  type DragEndEvent,
  KeyboardSensor,
  PointerSensor,
  useSensor,
  useSensors,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { Fragment } from 'react';
import { PlusIcon } from '#web/components/ui/icons';
import {
  deleteBlock,
  duplicateBlock,
  editBlock,
  moveBlock,
  openSidebar,
  reorderBlocks,
  useBuilderStore,
} from '../store';
import { NewBlockCard, SortableBlockCard } from './BlockCard';
import styles from './BlockStack.module.css';

/**
 * The digest's blocks in their order, each with its live preview; blocks are dragged, or moved with their
 * buttons (and with the keyboard on the drag handle). Add buttons between blocks choose where the next
 * source goes; a new source is previewed in that place until it is saved.
 */
export function BlockStack({ context }: { context: BlockContext }) {
  const blocks = useBuilderStore((state) => state.blocks);
  const pending = useBuilderStore((state) => state.pending);
  const step = useBuilderStore((state) => state.step);
  const sidebarOpen = useBuilderStore((state) => state.sidebarOpen);
  const sourcePosition = useBuilderStore((state) => state.sourcePosition);
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 6 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const full = blocks.length >= MAX_SOURCES;
  const addingNew = sidebarOpen && step !== 'entry' && pending !== null && pending.blockId === null;
  const newAt = Math.min(sourcePosition, blocks.length);

  const onDragEnd = (event: DragEndEvent) => {
    if (event.over) reorderBlocks(String(event.active.id), String(event.over.id));
  };

  return (
    <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
      <SortableContext items={blocks.map((block) => block.id)} strategy={verticalListSortingStrategy}>
        <ol className={styles.stack} aria-label="Sources of your Digest">
          {blocks.map((block, index) => {
            const editing = pending?.blockId === block.id;
            return (
              <Fragment key={block.id}>
                {addingNew && newAt === index ? (
                  <li>
                    <NewBlockCard source={pending.source} context={context} />
                  </li>
                ) : index > 0 ? (
                  <li className={styles.between}>
                    <AddHere position={index} disabled={full} />
                  </li>
                ) : null}
                <li>
                  <SortableBlockCard
                    id={block.id}
                    source={editing && pending.source ? pending.source : block.source}
                    context={context}
                    editing={editing}
                    actions={{
                      onMoveUp: index > 0 ? () => moveBlock(block.id, -1) : undefined,
                      onMoveDown: index < blocks.length - 1 ? () => moveBlock(block.id, 1) : undefined,
                      onDuplicate: full ? undefined : () => duplicateBlock(block.id),
                      onEdit: () => editBlock(block.id),
                      onDelete: () => deleteBlock(block.id),
                    }}
                  />
                </li>
              </Fragment>
            );
          })}
          {addingNew && newAt >= blocks.length ? (
            <li>
              <NewBlockCard source={pending.source} context={context} />
            </li>
          ) : null}
        </ol>
      </SortableContext>
      <button
        type="button"
        className={styles.addLast}
        disabled={full}
        onClick={() => openSidebar(blocks.length)}
      >
        <PlusIcon /> Add source
      </button>
      {full ? <p className={styles.limit}>{DIGEST_MESSAGES.maxSources}</p> : null}
    </DndContext>
  );
}

function AddHere({ position, disabled }: { position: number; disabled: boolean }) {
  return (
    <button
      type="button"
      className={styles.addHere}
      disabled={disabled}
      aria-label={`Add a source at position ${position + 1}`}
      title="Add a source here"
      onClick={() => openSidebar(position)}
    >
      <PlusIcon />
    </button>
  );
}
