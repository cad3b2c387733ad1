import { IMAGES_OPTIONS, LAYOUT_OPTIONS, POST_CONTENT_OPTIONS, SOURCE_POST_LIMITS } from '@digest/contracts';
import { ListConditionFields } from '../form/ConditionFields';
import { ChoiceField, CountField, NameField, OnlyNewField, SettingsForm } from '../form/SettingsFields';
import { settingDefaults } from '../form/setting-defaults';
import { useSourceForm } from '../form/use-source-form';
import type { SourcePanelProps } from '../panel';

/** docs/product.md §4: Product Hunt has no search; its panel is its settings (docs/product.md §9: 6 posts, 2 columns). */
export function ProductHuntPanel({ type, initial, onChange, onSave }: SourcePanelProps<'PRODUCT_HUNT'>) {
  const form = useSourceForm(type, initial ?? settingDefaults(type), onChange);
  return (
    <SettingsForm canSave={form.source !== null} onSave={() => form.source && onSave(form.source)}>
      <NameField form={form} />
      <CountField
        form={form}
        field="numberOfPosts"
        label="Number of posts"
        max={SOURCE_POST_LIMITS.PRODUCT_HUNT}
      />
      <ChoiceField form={form} field="layout" label="Layout" options={LAYOUT_OPTIONS} />
      <OnlyNewField form={form} />
      <ListConditionFields form={form} max={SOURCE_POST_LIMITS.PRODUCT_HUNT} />
      <ChoiceField form={form} field="images" label="Images" options={IMAGES_OPTIONS} />
      <ChoiceField form={form} field="postBody" label="Post content" options={POST_CONTENT_OPTIONS} />
    </SettingsForm>
  );
}
