import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { brokenLinks, documentationFiles, headingAnchor, REPOSITORY_ROOT } from './markdown-links.ts';

// The README is the front door: what Debesis is, the two commands and where to read on. The rest
// lives in docs/, so the README staying short is part of its job.
const README_MAX_LINES = 200;

describe("the repository's documentation", () => {
  it('keeps README.md a README (at most 200 lines)', () => {
    const lines = readFileSync(path.join(REPOSITORY_ROOT, 'README.md'), 'utf8').trimEnd().split('\n');
    expect(lines.length).toBeLessThanOrEqual(README_MAX_LINES);
  });

  it('has a docs/ folder with pages', () => {
    expect(documentationFiles().length).toBeGreaterThan(10);
  });

  it('links only to files and headings that exist', () => {
    expect(documentationFiles().flatMap((file) => brokenLinks(file))).toEqual([]);
  });

  it("never sends a reader outside the repository's own files", () => {
    const outside = documentationFiles().filter((file) =>
      /\.\.\/shared|shared\/(docs|spec)/.test(readFileSync(path.join(REPOSITORY_ROOT, file), 'utf8')),
    );
    expect(outside).toEqual([]);
  });

  it('makes anchors as GitHub does', () => {
    expect(headingAnchor('Rotating `JWT_SECRET`')).toBe('rotating-jwt_secret');
    expect(headingAnchor('Web side (the tab)')).toBe('web-side-the-tab');
  });
});
