import { describe, expect, it } from 'vitest';
import { withoutUrlPasswords } from './restic.ts';

describe("restic's words as the owner sees them", () => {
  it("hides a target URL's password, keeps the rest", () => {
    expect(
      withoutUrlPasswords(
        'Is there a repository at the following location?\nrest:http://node:s3cr%2Ft@198.18.0.9:8000/abc',
      ),
    ).toBe('Is there a repository at the following location?\nrest:http://node:***@198.18.0.9:8000/abc');
    expect(withoutUrlPasswords('rest:https://a:b@h/ and rest:https://c:d@h/')).toBe(
      'rest:https://a:***@h/ and rest:https://c:***@h/',
    );
    expect(withoutUrlPasswords('sftp:user@host:/srv/x rest:http://h:8000/x')).toBe(
      'sftp:user@host:/srv/x rest:http://h:8000/x',
    );
  });
});
