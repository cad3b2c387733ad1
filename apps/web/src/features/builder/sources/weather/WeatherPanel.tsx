import { FORECAST_OPTIONS, TEMPERATURE_OPTIONS } from '@digest/contracts';
import type { WeatherLocation } from '@digest/contracts/content';
import { useWeatherLocations } from '#web/features/builder/api/weather-api';
import { errorMessage } from '#web/lib/api-client';
import { WeatherConditionFields } from '../form/ConditionFields';
import { PickedChoice, ResultButton, ResultPanel, SearchBox, useSearchStep } from '../form/Search';
import { ChoiceField, NameField, SettingsForm } from '../form/SettingsFields';
import { settingDefaults } from '../form/setting-defaults';
import { useSourceForm } from '../form/use-source-form';
import type { SourcePanelProps } from '../panel';
import { locationLabel, locationSettings } from './location';

/** docs/product.md §4: weather goes selected → searching (a city) → edit (forecast and temperature settings). */
export function WeatherPanel({ type, step, goTo, initial, onChange, onSave }: SourcePanelProps<'WEATHER'>) {
  const form = useSourceForm(type, initial ?? settingDefaults(type), onChange);
  const search = useSearchStep({ step, goTo });

  if (step === 'edit') {
    const errors = form.errors;
    return (
      <SettingsForm canSave={form.source !== null} onSave={() => form.source && onSave(form.source)}>
        <PickedChoice
          label="Location"
          title={form.values.locationName ?? ''}
          error={errors.locationName ?? errors.latitude ?? errors.longitude}
          onChange={() => goTo('selected')}
        />
        <NameField form={form} />
        <ChoiceField form={form} field="forecastIntervalType" label="Forecast" options={FORECAST_OPTIONS} />
        <ChoiceField form={form} field="temperatureType" label="Temperature" options={TEMPERATURE_OPTIONS} />
        <WeatherConditionFields form={form} />
      </SettingsForm>
    );
  }
  return (
    <>
      <SearchBox
        label="Search for a city"
        placeholder="Search for a city"
        value={search.text}
        onChange={search.setText}
      />
      <LocationResults
        query={search.query}
        onPick={(location) => {
          form.merge(locationSettings(location));
          goTo('edit');
        }}
      />
    </>
  );
}

/** The places matching `query`; before any search, 'Search results will display here'. */
export function LocationResults({
  query,
  onPick,
}: {
  query: string;
  onPick: (location: WeatherLocation) => void;
}) {
  const locations = useWeatherLocations(query);
  return (
    <ResultPanel
      title="Results"
      idle={query === ''}
      loading={locations.isLoading}
      error={locations.error ? errorMessage(locations.error) : null}
      items={locations.data}
      keyOf={(location) => `${location.latitude},${location.longitude}`}
      renderItem={(location) => (
        <ResultButton
          title={location.name}
          description={locationLabel(location)}
          onPick={() => onPick(location)}
        />
      )}
    />
  );
}
