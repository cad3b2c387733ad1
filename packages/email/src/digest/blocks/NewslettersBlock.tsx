import type { NewsletterItem } from '@digest/contracts/content';
import { emailClass as c } from '../../components/theme';
import { formatShortDate } from '../format';
import { safeHref } from '../html';
import { CONTENT_WIDTH, blockStyles as s } from '../styles';
import { sourceTitle } from '../titles';
import type { BlockContext, BlockProps } from '../types';
import { BlockFrame, Empty, HtmlContent, ItemText, ItemTitle, Meta } from './parts';

/** The link to a newsletter's page in the app, where the whole issue is read. */
function ReadInDigest({ href, children = 'Read in Digest' }: { href: string; children?: string }) {
  const link = safeHref(href);
  if (!link) return null;
  return (
    <p className={c.text} style={s.text}>
      <a href={link} className={c.link} style={s.titleLink}>
        {children}
      </a>
    </p>
  );
}

/** Title, sender and date, the excerpt and the link: the summary layout, and a whole issue too long for a mail. */
function Summary({ item, context }: { item: NewsletterItem; context: BlockContext }) {
  return (
    <>
      <ItemTitle href={item.url}>{item.subject || '(no subject)'}</ItemTitle>
      <Meta parts={[item.senderName || item.fromAddress, formatShortDate(item.receivedAt, context)]} />
      <ItemText>{item.excerpt}</ItemText>
      {item.tooLong ? (
        <ReadInDigest href={item.url}>Too long for an e-mail: read it in Digest</ReadInDigest>
      ) : (
        <ReadInDigest href={item.url} />
      )}
    </>
  );
}

/** The whole issue under a heading of its sender and subject (its HTML as the server sanitised and stored it). */
function WholeIssue({ item, context }: { item: NewsletterItem; context: BlockContext }) {
  if (item.tooLong || (!item.html && !item.text)) return <Summary item={item} context={context} />;
  return (
    <>
      <Meta parts={[item.senderName || item.fromAddress, formatShortDate(item.receivedAt, context)]} />
      <ItemTitle href={item.url}>{item.subject || '(no subject)'}</ItemTitle>
      {item.html ? (
        <HtmlContent html={item.html} postBody="full" images="show" width={CONTENT_WIDTH} />
      ) : (
        <ItemText>{item.text}</ItemText>
      )}
    </>
  );
}

/** NEWSLETTERS: the newsletters received since the digest's previous issue, summed up or whole. */
export function NewslettersBlock({ source, content, context }: BlockProps<'NEWSLETTERS'>) {
  const Item = source.layout === 'full' ? WholeIssue : Summary;
  return (
    <BlockFrame title={sourceTitle(source)} showHeading={source.showHeading}>
      {content.items.length === 0 ? (
        <Empty>No new newsletters</Empty>
      ) : (
        content.items.map((item) => (
          <div key={item.messageId} style={source.layout === 'full' ? styles.issue : s.item}>
            <Item item={item} context={context} />
          </div>
        ))
      )}
    </BlockFrame>
  );
}

const styles = {
  issue: { margin: '0 0 28px', overflow: 'hidden' },
} as const;
