// Where a visitor probably is, to preselect the country on registration. In order: a country
// header set by a trusted proxy or CDN (TRUST_PROXY), the offline GeoIP database of `geoip-country` (no network
// call, updated with the package), then the region of Accept-Language (`lt-LT` → LT).
import { createRequire } from 'node:module';
import type { FastifyRequest } from 'fastify';

export type CountrySource = 'proxy_header' | 'geoip' | 'accept_language' | 'none';

const PROXY_HEADERS = ['cf-ipcountry', 'cloudfront-viewer-country', 'x-country-code', 'x-vercel-ip-country'];
const ISO_COUNTRY = /^[A-Z]{2}$/;
/** Codes proxies use for "unknown" or "Tor", which are not countries. */
const NOT_COUNTRIES = new Set(['XX', 'T1', 'ZZ']);

interface GeoIp {
  lookup(ip: string): { country?: string } | null;
}
let geoip: GeoIp | undefined;
/** The country of an IP address in the offline database; null for private, loopback and unlisted ones. */
export function geoipLookup(ip: string): string | null {
  // Loaded on first use: the database takes memory and a moment to read.
  geoip ??= createRequire(import.meta.url)('geoip-country') as GeoIp;
  const country = geoip.lookup(ip)?.country?.toUpperCase();
  return country && ISO_COUNTRY.test(country) ? country : null;
}

export function regionFromAcceptLanguage(header: string | undefined): string | null {
  for (const part of (header ?? '').split(',')) {
    const tag = part.split(';')[0]?.trim() ?? '';
    const region = tag.split('-')[1]?.toUpperCase();
    if (region && ISO_COUNTRY.test(region)) return region;
  }
  return null;
}

export function detectCountry(
  request: FastifyRequest,
  options: { trustProxy: boolean },
): { country: string | null; source: CountrySource } {
  // Only from a request that came through a trusted proxy: with TRUST_PROXY set to addresses, a
  // client talking to the API directly is not one (request.ips stops at the first untrusted hop).
  if (options.trustProxy && (request.ips?.length ?? 0) > 1) {
    for (const name of PROXY_HEADERS) {
      const value = request.headers[name];
      const country = typeof value === 'string' ? value.trim().toUpperCase() : '';
      if (ISO_COUNTRY.test(country) && !NOT_COUNTRIES.has(country))
        return { country, source: 'proxy_header' };
    }
  }
  const fromIp = request.ip ? geoipLookup(request.ip) : null;
  if (fromIp) return { country: fromIp, source: 'geoip' };
  const fromLanguage = regionFromAcceptLanguage(request.headers['accept-language']);
  if (fromLanguage) return { country: fromLanguage, source: 'accept_language' };
  return { country: null, source: 'none' };
}
