// The timing of the payment completion pages' polling, in a module of its own (no imports) so
// the browser journeys can use the same figures.

/** The completion pages ask for the session's status this often… */
export const COMPLETION_POLL_MS = 1_500;
/** …and give up (timed out, spec §8) when the order is still not complete after this long. */
export const COMPLETION_TIMEOUT_MS = 60_000;
