/** biome-ignore-all lint/a11y/useAnchorContent: ItemImage's picture link is hidden on purpose (the item's title beside it is the same link, with a name) */
import type { ImagesOption, ItemDiscussion, Layout, PostBodyOption } from '@digest/contracts';
import type { ReactNode } from 'react';
import { emailClass as c } from '../../components/theme';
import { capImages, firstParagraphOf, safeHref, safeImageSrc, withoutImages } from '../html';
import { COLUMN_WIDTH, CONTENT_WIDTH, blockStyles as s } from '../styles';

/**
 * Building parts shared by the block components: plain elements with inline styles (what every mail
 * client keeps) and the theme's class names (dark mode, stacking columns).
 */

export interface BlockFrameProps {
  title: string;
  showHeading: boolean;
  /** A line under the heading: the place, the period, the feed's site. */
  subtitle?: string | undefined;
  /** A small picture before the title (a feed's favicon), left out when images are hidden. */
  icon?: string | undefined;
  children?: ReactNode;
}

/** One source block: its heading (unless the user turned it off) and its items. */
export function BlockFrame({ title, showHeading, subtitle, icon, children }: BlockFrameProps) {
  const iconSrc = safeImageSrc(icon);
  return (
    <div style={s.block}>
      {showHeading && title ? (
        <h2 className={c.heading} style={s.heading}>
          {iconSrc ? <img src={iconSrc} alt="" width={16} height={16} style={s.headingIcon} /> : null}
          {title}
        </h2>
      ) : null}
      {subtitle ? (
        <p className={c.muted} style={s.subtitle}>
          {subtitle}
        </p>
      ) : (
        <div style={s.headingRule} />
      )}
      {children}
    </div>
  );
}

/** The width a picture of a block with this layout may take. */
export const widthFor = (layout: Layout) => (layout === 2 ? COLUMN_WIDTH : CONTENT_WIDTH);

interface ColumnsProps<T> {
  items: readonly T[];
  layout: Layout;
  /** A stable key of an item. */
  keyOf: (item: T, index: number) => string;
  render: (item: T) => ReactNode;
}

/**
 * Items one under the other (layout 1) or two per row (layout 2): a table of two cells per row that the
 * digest CSS stacks into one column under 600 px.
 */
export function Columns<T>({ items, layout, keyOf, render }: ColumnsProps<T>) {
  if (layout === 1) {
    return (
      <>
        {items.map((item, index) => (
          <div key={keyOf(item, index)} style={s.item}>
            {render(item)}
          </div>
        ))}
      </>
    );
  }
  const rows: { key: string; cells: T[] }[] = [];
  items.forEach((item, index) => {
    if (index % 2 === 0) rows.push({ key: keyOf(item, index), cells: [item] });
    else rows[rows.length - 1]?.cells.push(item);
  });
  return (
    <table
      role="presentation"
      width="100%"
      cellPadding={0}
      cellSpacing={0}
      className={c.columns}
      style={s.columns}
    >
      <tbody>
        {rows.map((row) => (
          <tr key={row.key}>
            <td className={c.column} width="50%" style={s.columnLeft}>
              {row.cells[0] === undefined ? null : render(row.cells[0])}
            </td>
            <td className={c.column} width="50%" style={s.columnRight}>
              {row.cells[1] === undefined ? null : render(row.cells[1])}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** An item's title, a link when it has a safe address. */
export function ItemTitle({ href, children }: { href?: string | undefined; children: ReactNode }) {
  const link = safeHref(href);
  return (
    <p className={c.text} style={s.title}>
      {link ? (
        <a href={link} className={c.link} style={s.titleLink}>
          {children}
        </a>
      ) : (
        children
      )}
    </p>
  );
}

/** A muted line of facts joined by ' · ' (author, date, counts); nothing when every part is empty. */
export function Meta({ parts }: { parts: (string | false | null | undefined)[] }) {
  const shown = parts.filter((part): part is string => Boolean(part));
  if (shown.length === 0) return null;
  return (
    <p className={c.muted} style={s.meta}>
      {shown.join(' · ')}
    </p>
  );
}

/** Plain text of an item (a tagline, a tweet), line breaks kept. */
export function ItemText({ children }: { children: string }) {
  if (!children) return null;
  return (
    <p className={c.text} style={{ ...s.text, whiteSpace: 'pre-line' }}>
      {children}
    </p>
  );
}

interface ItemImageProps {
  src: string | undefined;
  alt: string;
  images: ImagesOption;
  width: number;
  href?: string | undefined;
}

/** An item's picture across its column (images 'hide' or no safe address: nothing). */
export function ItemImage({ src, alt, images, width, href }: ItemImageProps) {
  const safe = safeImageSrc(src);
  if (images === 'hide' || !safe) return null;
  const image = <img src={safe} alt={alt} width={width} style={{ ...s.image, width: '100%' }} />;
  const link = safeHref(href);
  // The text part has the item's title with the same link: a bare URL for the picture would repeat it.
  // So does the page: the picture's link (its image has no text) is left out of the tab order and of
  // what a screen reader reads, instead of being an unnamed link next to the title's.
  if (!link) return image;
  return (
    <a href={link} data-skip-in-text="true" aria-hidden="true" tabIndex={-1}>
      {image}
    </a>
  );
}

interface HtmlContentProps {
  html: string;
  postBody: PostBodyOption;
  images: ImagesOption;
  width: number;
}

/**
 * Content the server sanitised (feed posts, self texts, descriptions), per the post content option,
 * without pictures when images are hidden and with every picture capped to the column.
 */
export function HtmlContent({ html, postBody, images, width }: HtmlContentProps) {
  if (postBody === 'hide' || !html) return null;
  const cut = postBody === 'paragraph' ? firstParagraphOf(html) : html;
  const shown = images === 'hide' ? withoutImages(cut) : capImages(cut, width);
  if (!shown) return null;
  return (
    <div
      className={c.content}
      style={s.content}
      // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised by the server (platform/sanitize-html) before it is stored
      dangerouslySetInnerHTML={{ __html: shown }}
    />
  );
}

/** What a block says when it has nothing to show. */
export function Empty({ children }: { children: string }) {
  return (
    <p className={c.muted} style={s.empty}>
      {children}
    </p>
  );
}

/**
 * The other sources of the digest that had the same story, shown once (docs/product.md §3 "Every item
 * once"): a line of links to their discussions; nothing when there are none or none is a safe link.
 */
export function Discussions({ discussions }: { discussions: readonly ItemDiscussion[] | undefined }) {
  const links = (discussions ?? []).flatMap((discussion) => {
    const href = safeHref(discussion.url);
    return href ? [{ href, label: discussion.label }] : [];
  });
  if (links.length === 0) return null;
  return (
    <p className={c.muted} style={s.meta}>
      {'Also: '}
      {links.map((link, index) => (
        <span key={link.href}>
          {index > 0 ? ' · ' : null}
          <a href={link.href} className={c.link} style={s.titleLink}>
            {link.label}
          </a>
        </span>
      ))}
    </p>
  );
}

/** A failure inside a block (a block that could not be loaded, one account of several). */
export function ErrorNotice({ children }: { children: string }) {
  return (
    <p className={c.error} style={s.error} role="alert">
      {children}
    </p>
  );
}
