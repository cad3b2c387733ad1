import { DIGEST_MESSAGES, type Source, sourceSchema, type Template } from '@digest/contracts';
import { notifyError, notifySuccess } from '#web/lib/notify';
import { addSources } from '../store';

/**
 * The template's sources that pass the contracts, in order. The server answers them in the stored shape,
 * which is a valid source; an answer is still never trusted: a source that fails is skipped.
 */
export function templateSources(template: Template): Source[] {
  return template.sources.flatMap((source) => {
    const parsed = sourceSchema.safeParse(source);
    return parsed.success ? [parsed.data] : [];
  });
}

export interface TemplateNotice {
  kind: 'success' | 'error';
  message: string;
}

const sourcesCount = (count: number) => `${count} ${count === 1 ? 'source' : 'sources'}`;

/**
 * What 'Use template' tells the user: the sources added, or how many of them were left out and why.
 * `total`: the template's sources; `valid`: those that passed the contracts; `added`: those that fit.
 */
export function templateNotice(
  name: string,
  { total, valid, added }: { total: number; valid: number; added: number },
): TemplateNotice {
  if (added === total) return { kind: 'success', message: `Added ${sourcesCount(added)} from ${name}` };
  const overLimit = valid - added;
  const unreadable = total - valid;
  const reasons = [
    overLimit > 0 ? `${DIGEST_MESSAGES.maxSources}: ${overLimit} left out.` : '',
    unreadable > 0 ? `${sourcesCount(unreadable)} could not be read.` : '',
  ];
  return {
    kind: 'error',
    message: [`Added ${added} of the ${sourcesCount(total)} of ${name}.`, ...reasons]
      .filter(Boolean)
      .join(' '),
  };
}

/** 'Use template': its sources go into the digest at the chosen position, and the user is told the result. */
export function applyTemplate(template: Template): void {
  const sources = templateSources(template);
  const added = addSources(sources);
  const notice = templateNotice(template.name, {
    total: template.sources.length,
    valid: sources.length,
    added,
  });
  (notice.kind === 'success' ? notifySuccess : notifyError)(notice.message);
}
