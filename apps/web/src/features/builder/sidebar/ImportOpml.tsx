import { MAX_SOURCES, type OpmlFeed, type Source, sourceSchema } from '@digest/contracts';
import { useState } from 'react';
import { Button } from '#web/components/ui/Button';
import { UploadIcon } from '#web/components/ui/icons';
import { OpmlImportDialog } from '#web/features/portability';
import { notifySuccess } from '#web/lib/notify';
import { addSources, useBuilderStore } from '../store';

/** A feed of an OPML file as an RSS block with the kind's defaults, its title as the block's name. */
export function opmlFeedSources(feeds: readonly OpmlFeed[]): Source[] {
  return feeds.flatMap((feed) => {
    const parsed = sourceSchema.safeParse({ type: 'RSS', feedLink: feed.xmlUrl, sourceName: feed.title });
    return parsed.success ? [parsed.data] : [];
  });
}

/** "Import OPML" in the entry step: tick feeds of a feed reader's export, each becomes an RSS block. */
export function ImportOpml({ full }: { full: boolean }) {
  const [open, setOpen] = useState(false);
  const room = useBuilderStore((state) => Math.max(MAX_SOURCES - state.blocks.length, 0));
  return (
    <>
      <Button variant="secondary" small disabled={full} onClick={() => setOpen(true)}>
        <UploadIcon />
        Import OPML
      </Button>
      <OpmlImportDialog
        mode="feeds"
        open={open}
        onOpenChange={setOpen}
        room={room}
        onAdd={(feeds) => {
          const added = addSources(opmlFeedSources(feeds));
          notifySuccess(`Added ${added} ${added === 1 ? 'feed' : 'feeds'} from your OPML file`);
        }}
      />
    </>
  );
}
