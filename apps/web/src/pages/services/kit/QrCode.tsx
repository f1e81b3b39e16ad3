// A value (a URL, an otpauth URI) as a QR code for a phone to scan: the share links' and the
// subusers' two-factor set-up. The encoder (uqr) comes only when a code is shown.
import { useQuery } from '@tanstack/react-query';
import { qrPath } from '../vpn/VpnPhoneDialog.tsx';

export function QrCode({
  value,
  label,
  testId,
  size = 200,
}: {
  value: string;
  label: string;
  testId: string;
  size?: number;
}) {
  const qr = useQuery({
    queryKey: ['qr-code', value],
    queryFn: async () => {
      const { encode } = await import('uqr');
      const code = encode(value, { ecc: 'M', border: 4 });
      return { size: code.size, path: qrPath(code.data) };
    },
    staleTime: Infinity,
  });
  if (!qr.data) return null;
  return (
    <svg
      viewBox={`0 0 ${qr.data.size} ${qr.data.size}`}
      width={size}
      height={size}
      role="img"
      aria-label={label}
      data-testid={testId}
      shapeRendering="crispEdges"
    >
      <rect width="100%" height="100%" fill="#fff" />
      <path d={qr.data.path} fill="#000" />
    </svg>
  );
}
