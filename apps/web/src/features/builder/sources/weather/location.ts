import type { SourceInputOf } from '@digest/contracts';
import type { WeatherLocation } from '@digest/contracts/content';

/** 'Springfield, Illinois, United States'; a state named like its city is said once ('Berlin, Germany'). */
export function locationLabel(location: WeatherLocation): string {
  const parts = [location.name, location.state, location.country].map((part) => part.trim()).filter(Boolean);
  return [...new Set(parts)].join(', ');
}

/** The settings a picked place gives a weather block: where it is and what to call it. */
export function locationSettings(
  location: WeatherLocation,
): Pick<SourceInputOf<'WEATHER'>, 'latitude' | 'longitude' | 'locationName'> {
  return {
    latitude: location.latitude,
    longitude: location.longitude,
    locationName: locationLabel(location),
  };
}
