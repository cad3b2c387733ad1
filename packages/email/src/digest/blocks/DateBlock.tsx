import { emailClass as c } from '../../components/theme';
import { blockStyles as s } from '../styles';
import { sourceTitle } from '../titles';
import type { BlockProps } from '../types';
import { BlockFrame } from './parts';

/** DATE: today's date where the owner lives, as the connector wrote it in their locale. */
export function DateBlock({ source, content }: BlockProps<'DATE'>) {
  return (
    <BlockFrame title={sourceTitle(source)} showHeading={source.showHeading}>
      <p className={c.text} style={{ ...s.text, fontSize: '22px', lineHeight: '30px', fontWeight: 600 }}>
        {content.formatted || content.date}
      </p>
    </BlockFrame>
  );
}
