/** Paths the public (desk) pages link to. */
export const DESK_LINKS = {
  home: '/',
  register: '/register',
  console: '/ctrl-overview/overview',
  serviceTerms: '/terms/service-terms',
  privacyTerms: '/terms/privacy-terms',
  about: '/about',
} as const;

export const SUPPORT_EMAIL = 'support@suanligang.example';
