import { NameField, SettingsForm } from '../form/SettingsFields';
import { settingDefaults } from '../form/setting-defaults';
import { useSourceForm } from '../form/use-source-form';
import type { SourcePanelProps } from '../panel';

/** Today's date has nothing to choose but its name (the guided sequence adds it without this panel). */
export function DatePanel({ type, initial, onChange, onSave }: SourcePanelProps<'DATE'>) {
  const form = useSourceForm(type, initial ?? settingDefaults(type), onChange);
  return (
    <SettingsForm canSave={form.source !== null} onSave={() => form.source && onSave(form.source)}>
      <NameField form={form} />
    </SettingsForm>
  );
}
