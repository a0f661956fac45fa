/**
 * Booked jobs back to the ad platforms: one button per platform downloads the booked leads of the
 * report's days that carry its click id, as its offline conversion import file. The conversion
 * name is the one the owner created on the platform (docs/inbox.md); this browser remembers it.
 */
import { useState } from 'react';
import type { InboxApi } from './api.js';
import { conversionsCsv, conversionsFileName, DEFAULT_CONVERSION_NAME } from './conversionsCsv.js';
import { download } from './download.js';
import { AD_PLATFORMS, CHANNEL_LABELS, type AdPlatform } from './model.js';

const NAME_KEY = 'inbox:conversionName';

function storedName(): string {
  try {
    return localStorage.getItem(NAME_KEY) || DEFAULT_CONVERSION_NAME;
  } catch {
    return DEFAULT_CONVERSION_NAME;
  }
}

export function ConversionExport({ api, from, to, onMessage }: { api: InboxApi; from: string; to: string; onMessage: (text: string) => void }) {
  const [name, setName] = useState(storedName);
  const [busy, setBusy] = useState<AdPlatform>();
  const [error, setError] = useState<string>();

  async function exportFor(platform: AdPlatform) {
    setBusy(platform);
    setError(undefined);
    try {
      const conversionName = name.trim() || DEFAULT_CONVERSION_NAME;
      try { localStorage.setItem(NAME_KEY, conversionName); } catch { /* not remembered */ }
      const conversions = await api.conversions(platform, from, to);
      download(conversionsFileName(platform, new Date()), conversionsCsv(platform, conversionName, conversions));
      onMessage(`Exported ${conversions.length} ${conversions.length === 1 ? 'conversion' : 'conversions'} for ${CHANNEL_LABELS[platform]}`);
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(undefined);
    }
  }

  return (
    <div className="conversions">
      <h3>Booked jobs for the ad platforms</h3>
      <p className="muted">Jobs booked in these days whose visitor came from an ad click, as the platform's offline conversion import file.</p>
      <label htmlFor="conversion-name">Conversion name (as set up in the ad platform)</label>
      <input id="conversion-name" value={name} maxLength={100} onChange={(e) => setName(e.target.value)} />
      {error && <p className="form-error" role="alert">{error}</p>}
      <div className="conversion-buttons">
        {AD_PLATFORMS.map((platform) => (
          <button key={platform} type="button" className="button" disabled={busy !== undefined} onClick={() => exportFor(platform)}>
            {busy === platform ? 'Exporting…' : `${CHANNEL_LABELS[platform]} CSV`}
          </button>
        ))}
      </div>
    </div>
  );
}
