import { PUBLIC_FEEDS, shareFeedPath, sharePageUrl } from '@digest/contracts';
import { withoutRecipientFooter } from '@digest/email';
import { DomUtils, parseDocument } from 'htmlparser2';
import { SITE_NAME } from '#server/platform/http/page-head';
import { escapeHtml, sanitizeHtml } from '#server/platform/sanitize-html';

/** One issue of a public digest as its feeds carry it. */
export interface PublicFeedIssue {
  buildNumber: number;
  createdAt: Date;
  /** The issue's public copy, ready for a feed (`feedContentOf`). */
  content: string;
}

/** What a public digest's feeds are written from. */
export interface PublicFeed {
  appUrl: string;
  shareToken: string;
  name: string;
  scheduleType: string;
  ownerName: string | null;
  ownerUsername: string | null;
  /** When the feed last changed: its newest issue, the digest or its owner's name, whichever came last. */
  updatedAt: Date;
  /** Newest first. */
  issues: PublicFeedIssue[];
}

/** The app's icon, served with the web app (apps/web/public). */
const ICON_PATH = '/favicon.svg';

/**
 * The public copy of an issue (docs/design.md §10: blocks that read private data already replaced) as a
 * feed's HTML content. The copy is a whole e-mail: its inbox preview line is hidden by a style, and feed
 * readers drop styles, so it goes (React Email marks it `data-skip-in-text`); the rest goes through the one
 * allow-list, which also drops the head, the styles and anything a feed reader should not run.
 */
export function feedContentOf(publicHtml: string, appUrl: string): string {
  const document = parseDocument(withoutRecipientFooter({ html: publicHtml, text: '' }).html);
  for (const hidden of DomUtils.findAll(
    (element) => 'data-skip-in-text' in element.attribs,
    document.children,
  )) {
    DomUtils.removeElement(hidden);
  }
  return sanitizeHtml(DomUtils.getOuterHTML(document), { baseUrl: appUrl });
}

/** Who the feeds name as their author: the owner's public name, else their handle, else the app. */
function authorOf(feed: PublicFeed): { name: string; url?: string } {
  const profileUrl = feed.ownerUsername
    ? `${feed.appUrl}/user/${encodeURIComponent(feed.ownerUsername)}`
    : undefined;
  const name = feed.ownerName?.trim() || (feed.ownerUsername ? `@${feed.ownerUsername}` : SITE_NAME);
  return profileUrl ? { name, url: profileUrl } : { name };
}

/** "A weekly digest by Ann Smith, made with Digest." */
function descriptionOf(feed: PublicFeed): string {
  const by = feed.ownerName?.trim() ? ` by ${feed.ownerName.trim()}` : '';
  return `A ${feed.scheduleType} digest${by}, made with ${SITE_NAME}.`;
}

/** An issue's title in a feed reader's list: the digest and the number the e-mail shows ("Issue #3"). */
export function issueTitle(name: string, buildNumber: number): string {
  return `${name} · Issue #${buildNumber}`;
}

/**
 * Anything outside XML 1.0's characters (its `Char` production): C0 controls but tab, LF and CR, U+FFFE,
 * U+FFFF and lone surrogates. Not even escaped may they appear, and a digest's name or an issue could carry
 * one: a feed with one is not XML, and a reader refuses all of it.
 */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;

/** `text` as XML character data or a double-quoted attribute value. */
function xml(text: string): string {
  return escapeHtml(text.replace(NOT_XML, ''));
}

/**
 * The Atom feed (RFC 4287) of a public digest: its newest issues, each with its public copy as escaped
 * HTML content, linking its share page. The share page's address is the feed's id and each issue's is the
 * entry's: they never change while the link is on, and a link turned off and on again is another feed.
 */
export function atomFeedOf(feed: PublicFeed): string {
  const page = sharePageUrl(feed.appUrl, feed.shareToken);
  const author = authorOf(feed);
  const entries = feed.issues.map((issue) => {
    const url = sharePageUrl(feed.appUrl, feed.shareToken, issue.buildNumber);
    const date = issue.createdAt.toISOString();
    return [
      '  <entry>',
      `    <title type="text">${xml(issueTitle(feed.name, issue.buildNumber))}</title>`,
      `    <id>${xml(url)}</id>`,
      `    <link rel="alternate" type="text/html" href="${xml(url)}"/>`,
      `    <published>${date}</published>`,
      `    <updated>${date}</updated>`,
      `    <content type="html">${xml(issue.content)}</content>`,
      '  </entry>',
    ].join('\n');
  });
  return [
    '<?xml version="1.0" encoding="utf-8"?>',
    '<feed xmlns="http://www.w3.org/2005/Atom">',
    `  <title type="text">${xml(feed.name)}</title>`,
    `  <subtitle type="text">${xml(descriptionOf(feed))}</subtitle>`,
    `  <id>${xml(page)}</id>`,
    `  <updated>${feed.updatedAt.toISOString()}</updated>`,
    `  <link rel="self" type="${PUBLIC_FEEDS.atom.type}" href="${xml(feed.appUrl + shareFeedPath(feed.shareToken, 'atom'))}"/>`,
    `  <link rel="alternate" type="text/html" href="${xml(page)}"/>`,
    `  <author><name>${xml(author.name)}</name>${author.url ? `<uri>${xml(author.url)}</uri>` : ''}</author>`,
    `  <generator uri="${xml(`${feed.appUrl}/`)}">${SITE_NAME}</generator>`,
    `  <icon>${xml(feed.appUrl + ICON_PATH)}</icon>`,
    ...entries,
    '</feed>',
    '',
  ].join('\n');
}

/** The JSON Feed (version 1.1) of a public digest: the same issues as the Atom feed. */
export function jsonFeedOf(feed: PublicFeed) {
  return {
    version: 'https://jsonfeed.org/version/1.1',
    title: feed.name,
    home_page_url: sharePageUrl(feed.appUrl, feed.shareToken),
    feed_url: feed.appUrl + shareFeedPath(feed.shareToken, 'json'),
    description: descriptionOf(feed),
    favicon: feed.appUrl + ICON_PATH,
    authors: [authorOf(feed)],
    items: feed.issues.map((issue) => {
      const url = sharePageUrl(feed.appUrl, feed.shareToken, issue.buildNumber);
      return {
        id: url,
        url,
        title: issueTitle(feed.name, issue.buildNumber),
        content_html: issue.content,
        date_published: issue.createdAt.toISOString(),
      };
    }),
  };
}
