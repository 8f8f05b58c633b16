/** The agency behind the product, linked from the sidebar's footer ('Discover Obyect Agency'). */
export const AGENCY_URL = 'https://agency.obyect.com';
