/**
 * Where Stripe sends the browser back: only to an allowed origin (SITE_URL's
 * or ALLOWED_ORIGINS), never to an address the caller made up.
 */
export function checkoutReturnUrls(origin: string): { success_url: string; cancel_url: string } {
  return {
    // Stripe fills in {CHECKOUT_SESSION_ID}; the SPA shows 'Payment Successful' once for it.
    success_url: `${origin}/library?checkout=success&session_id={CHECKOUT_SESSION_ID}`,
    cancel_url: `${origin}/library?checkout=cancelled`,
  };
}

/** The origin to return to: baseUrl's when given (it must be allowed), else the caller's Origin if allowed, else the site's. */
export function returnOrigin(
  baseUrl: string | undefined,
  requestOrigin: string | null,
  allowedOrigins: string[],
): { ok: true; origin: string } | { ok: false; origin: string } {
  if (baseUrl !== undefined) {
    const origin = new URL(baseUrl).origin;
    return allowedOrigins.includes(origin) ? { ok: true, origin } : { ok: false, origin };
  }
  if (requestOrigin && allowedOrigins.includes(requestOrigin)) return { ok: true, origin: requestOrigin };
  return { ok: true, origin: allowedOrigins[0]! };
}
