import { describe, expect, it } from 'vitest';
import { attachmentDisposition } from './attachment.ts';

describe('attachmentDisposition', () => {
  it('names a plain file plainly, and any other in UTF-8 beside an ASCII fallback', () => {
    expect(attachmentDisposition('report.txt')).toBe(
      `attachment; filename="report.txt"; filename*=UTF-8''report.txt`,
    );
    expect(attachmentDisposition('Ataskaita už šį mėnesį.pdf')).toBe(
      `attachment; filename="Ataskaita uz si menesi.pdf"; filename*=UTF-8''Ataskaita%20u%C5%BE%20%C5%A1%C4%AF%20m%C4%97nes%C4%AF.pdf`,
    );
  });

  it('keeps quotes, backslashes, line breaks and percent signs out of the header', () => {
    const header = attachmentDisposition('a"b\\c\r\nSet-Cookie: x=1 100%.txt');
    expect(header).not.toMatch(/[\r\n]/);
    expect(header).toMatch(/^attachment; filename="a_b_cSet-Cookie: x=1 100_\.txt"; filename\*=UTF-8''/);
    expect(attachmentDisposition('日本語')).toBe(
      `attachment; filename="download"; filename*=UTF-8''%E6%97%A5%E6%9C%AC%E8%AA%9E`,
    );
  });
});
