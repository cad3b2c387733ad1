import { HACKER_NEWS_STORY_OPTIONS, LAYOUT_OPTIONS, SOURCE_POST_LIMITS } from '@digest/contracts';
import { DiscussionConditionFields } from '../form/ConditionFields';
import {
  ChoiceField,
  CountField,
  NameField,
  OnlyNewField,
  SettingsForm,
  ToggleField,
} from '../form/SettingsFields';
import { settingDefaults } from '../form/setting-defaults';
import { useSourceForm } from '../form/use-source-form';
import type { SourcePanelProps } from '../panel';

/** docs/product.md §4: Hacker News has no search; its panel is its settings (docs/product.md §9 defaults: 6 posts, 2 columns). */
export function HackerNewsPanel({ type, initial, onChange, onSave }: SourcePanelProps<'HACKER_NEWS'>) {
  const form = useSourceForm(type, initial ?? settingDefaults(type), onChange);
  return (
    <SettingsForm canSave={form.source !== null} onSave={() => form.source && onSave(form.source)}>
      <NameField form={form} />
      <ChoiceField form={form} field="story" label="Stories" options={HACKER_NEWS_STORY_OPTIONS} />
      <ToggleField form={form} field="askHN" label="Ask HN" />
      <ToggleField form={form} field="showHN" label="Show HN" />
      <CountField
        form={form}
        field="numberOfPosts"
        label="Number of posts"
        max={SOURCE_POST_LIMITS.HACKER_NEWS}
      />
      <ChoiceField form={form} field="layout" label="Layout" options={LAYOUT_OPTIONS} />
      <OnlyNewField form={form} />
      <DiscussionConditionFields form={form} max={SOURCE_POST_LIMITS.HACKER_NEWS} />
    </SettingsForm>
  );
}
