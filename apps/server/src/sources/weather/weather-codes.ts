/**
 * WMO weather interpretation codes (the `weather_code` Open-Meteo gives) as an icon name and words.
 * Icons are names the web and e-mail renderers map to pictures; clear and partly cloudy skies have a
 * night variant.
 */
interface Weather {
  icon: string;
  summary: string;
}

const CODES: Record<number, Weather> = {
  0: { icon: 'clear', summary: 'Clear sky' },
  1: { icon: 'partly-cloudy', summary: 'Mainly clear' },
  2: { icon: 'partly-cloudy', summary: 'Partly cloudy' },
  3: { icon: 'cloudy', summary: 'Overcast' },
  45: { icon: 'fog', summary: 'Fog' },
  48: { icon: 'fog', summary: 'Freezing fog' },
  51: { icon: 'drizzle', summary: 'Light drizzle' },
  53: { icon: 'drizzle', summary: 'Drizzle' },
  55: { icon: 'drizzle', summary: 'Dense drizzle' },
  56: { icon: 'sleet', summary: 'Light freezing drizzle' },
  57: { icon: 'sleet', summary: 'Freezing drizzle' },
  61: { icon: 'rain', summary: 'Light rain' },
  63: { icon: 'rain', summary: 'Rain' },
  65: { icon: 'rain', summary: 'Heavy rain' },
  66: { icon: 'sleet', summary: 'Light freezing rain' },
  67: { icon: 'sleet', summary: 'Freezing rain' },
  71: { icon: 'snow', summary: 'Light snow' },
  73: { icon: 'snow', summary: 'Snow' },
  75: { icon: 'snow', summary: 'Heavy snow' },
  77: { icon: 'snow', summary: 'Snow grains' },
  80: { icon: 'showers', summary: 'Light showers' },
  81: { icon: 'showers', summary: 'Showers' },
  82: { icon: 'showers', summary: 'Violent showers' },
  85: { icon: 'snow', summary: 'Light snow showers' },
  86: { icon: 'snow', summary: 'Heavy snow showers' },
  95: { icon: 'thunderstorm', summary: 'Thunderstorm' },
  96: { icon: 'thunderstorm', summary: 'Thunderstorm with hail' },
  99: { icon: 'thunderstorm', summary: 'Thunderstorm with heavy hail' },
};

const WITH_NIGHT_VARIANT = new Set(['clear', 'partly-cloudy']);

/** The icon and words for a WMO code; `night` picks the moon variant where there is one. */
export function describeWeather(code: number, night = false): Weather {
  const weather = CODES[code] ?? { icon: 'cloudy', summary: 'Cloudy' };
  if (!WITH_NIGHT_VARIANT.has(weather.icon)) return weather;
  return { ...weather, icon: `${weather.icon}-${night ? 'night' : 'day'}` };
}
