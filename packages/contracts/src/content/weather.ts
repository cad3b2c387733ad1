/** One part of a forecast: a day (5-day forecast) or a part of today (1-day forecast). */
export interface WeatherForecast {
  /** ISO date (YYYY-MM-DD) in the location's zone. */
  date: string;
  /** 'Morning' | 'Afternoon' | 'Evening' | 'Night' for the 1-day forecast; the weekday name for 5 days. */
  dayPart: string;
  /** Icon name derived from the WMO weather code, e.g. 'clear-day', 'rain', 'snow'. */
  icon: string;
  /** Words for the icon, e.g. 'Light rain' (alt text). */
  summary: string;
  tempCelsius: number;
  tempFahrenheit: number;
  highestCelsius: number;
  highestFahrenheit: number;
  lowestCelsius: number;
  lowestFahrenheit: number;
  /** 0–100. */
  precipitationPercent: number;
}

export interface WeatherContent {
  locationName: string;
  /** The location's IANA zone (Open-Meteo `timezone=auto`). */
  timezone: string;
  forecastIntervalType: 1 | 5;
  temperatureType: 'F' | 'C';
  forecasts: WeatherForecast[];
}

/** SPEC §3 weather location (the location search). */
export interface WeatherLocation {
  name: string;
  state: string;
  country: string;
  latitude: number;
  longitude: number;
}
