import type { Template, TemplateCategory } from '@digest/contracts';
import { useId } from 'react';
import { Button } from '#web/components/ui/Button';
import { SourceIcons } from '#web/features/digests';
import { errorMessage } from '#web/lib/api-client';
import { useTemplates } from '../api/templates-api';
import { ResultPanel } from '../sources/form/Search';
import styles from './TemplatesSection.module.css';
import { applyTemplate } from './templates';

/** A category has a couple of templates: a few placeholders stand for them while they load. */
const TEMPLATE_PLACEHOLDERS = 3;

/** The templates of a category, under its kinds; a category without templates shows nothing. */
export function TemplatesSection({ category, full }: { category: TemplateCategory; full: boolean }) {
  const templates = useTemplates(category);
  if (templates.data?.length === 0) return null;
  return (
    <ResultPanel
      title="Templates"
      loading={templates.isPending}
      error={templates.isError ? errorMessage(templates.error) : null}
      placeholders={TEMPLATE_PLACEHOLDERS}
      items={templates.data}
      keyOf={(template) => template.templateId}
      renderItem={(template) => <TemplateCard template={template} full={full} />}
    />
  );
}

/** A template: what it holds, and a button that adds all its sources (disabled at MAX_SOURCES). */
function TemplateCard({ template, full }: { template: Template; full: boolean }) {
  const nameId = useId();
  return (
    <article className={styles.card} aria-labelledby={nameId}>
      <h4 id={nameId} className={styles.name}>
        {template.name}
      </h4>
      <p className={styles.description}>{template.description}</p>
      {template.note && <p className={styles.note}>{template.note}</p>}
      <div className={styles.footer}>
        <SourceIcons sourceTypes={template.sources.map((source) => source.type)} />
        <Button
          variant="secondary"
          small
          aria-label={`Use template ${template.name}`}
          disabled={full}
          onClick={() => applyTemplate(template)}
        >
          Use template
        </Button>
      </div>
    </article>
  );
}
