import type { WeatherForecast } from '@digest/contracts/content';
import { emailClass as c } from '../../components/theme';
import { blockStyles as s } from '../styles';
import { sourceTitle } from '../titles';
import type { BlockProps } from '../types';
import { BlockFrame, Empty } from './parts';

/** The connector's icon names as emoji: pictures every client shows, with nothing to download. */
const ICONS: Record<string, string> = {
  'clear-day': '☀️',
  'clear-night': '🌙',
  'partly-cloudy-day': '⛅',
  'partly-cloudy-night': '☁️',
  cloudy: '☁️',
  fog: '🌫️',
  drizzle: '🌦️',
  showers: '🌦️',
  rain: '🌧️',
  sleet: '🌨️',
  snow: '❄️',
  thunderstorm: '⛈️',
};

type Unit = 'F' | 'C';

const degrees = (celsius: number, fahrenheit: number, unit: Unit) =>
  `${unit === 'C' ? celsius : fahrenheit}°${unit}`;

function temperatures(forecast: WeatherForecast, unit: Unit, fiveDays: boolean) {
  if (!fiveDays) return degrees(forecast.tempCelsius, forecast.tempFahrenheit, unit);
  const high = degrees(forecast.highestCelsius, forecast.highestFahrenheit, unit);
  const low = degrees(forecast.lowestCelsius, forecast.lowestFahrenheit, unit);
  return `${high} / ${low}`;
}

/** WEATHER: today's parts (1 day) or the next days (5 days) side by side, in °F or °C as the source says. */
export function WeatherBlock({ source, content }: BlockProps<'WEATHER'>) {
  const unit = source.temperatureType;
  const fiveDays = content.forecastIntervalType === 5;
  const place = content.locationName || source.locationName;
  const period = fiveDays ? 'Next 5 days' : 'Today';
  const width = `${Math.floor(100 / Math.max(content.forecasts.length, 1))}%`;
  return (
    <BlockFrame
      title={sourceTitle(source)}
      showHeading={source.showHeading}
      subtitle={`${place} · ${period}`}
    >
      {content.forecasts.length === 0 ? (
        <Empty>No forecast</Empty>
      ) : (
        <table
          role="presentation"
          className={c.forecast}
          width="100%"
          cellPadding={0}
          cellSpacing={4}
          style={s.columns}
        >
          <tbody>
            <tr>
              {content.forecasts.map((forecast) => (
                <td
                  key={`${forecast.date}-${forecast.dayPart}`}
                  className={c.tile}
                  width={width}
                  style={s.tile}
                >
                  <p className={c.text} style={{ ...s.title, fontSize: '14px' }}>
                    {forecast.dayPart}
                  </p>
                  <p
                    style={{ fontSize: '28px', lineHeight: '36px', margin: 0 }}
                    aria-hidden="true"
                    data-skip-in-text="true"
                  >
                    {ICONS[forecast.icon] ?? ICONS.cloudy}
                  </p>
                  <p className={c.text} style={{ ...s.text, fontWeight: 600 }}>
                    {temperatures(forecast, unit, fiveDays)}
                  </p>
                  <p className={c.muted} style={s.meta}>
                    {forecast.summary}
                    {forecast.precipitationPercent > 0 ? ` · ${forecast.precipitationPercent}% rain` : ''}
                  </p>
                </td>
              ))}
            </tr>
          </tbody>
        </table>
      )}
    </BlockFrame>
  );
}
