import { emailClass as c } from '../../components/theme';
import { safeHref } from '../html';
import { blockStyles as s } from '../styles';
import { sourceTitle } from '../titles';
import type { BlockProps } from '../types';
import { countOf } from './counts';
import { BlockFrame, Columns, Discussions, Empty, ItemTitle } from './parts';

/** HACKER_NEWS: each story links to its article, its comment count to the discussion. */
export function HackerNewsBlock({ source, content }: BlockProps<'HACKER_NEWS'>) {
  return (
    <BlockFrame title={sourceTitle(source)} showHeading={source.showHeading}>
      {content.items.length === 0 ? (
        <Empty>No stories</Empty>
      ) : (
        <Columns
          items={content.items}
          layout={source.layout}
          keyOf={(item) => item.storyUrl}
          render={(item) => (
            <>
              <ItemTitle href={item.url}>{item.title}</ItemTitle>
              <p className={c.muted} style={s.meta}>
                {countOf(item.score, 'point')} ·{' '}
                <a href={safeHref(item.storyUrl)} className={c.link} style={s.titleLink}>
                  {countOf(item.numberOfComments, 'comment')}
                </a>
              </p>
              <Discussions discussions={item.discussions} />
            </>
          )}
        />
      )}
    </BlockFrame>
  );
}
