// Runs before the first paint so a dark-theme visitor never sees a white flash and screen readers
// get the right language at once. Keys and defaults mirror @debesis/contract (STORAGE_KEYS,
// DEFAULT_THEME, DEFAULT_LANGUAGE); src/theme and src/i18n take over once the app has loaded.
(function () {
  var root = document.documentElement;
  var theme = 'light';
  var language = 'en';
  try {
    var storedTheme = localStorage.getItem('theme');
    if (storedTheme === 'light' || storedTheme === 'dark' || storedTheme === 'system') theme = storedTheme;
    var storedLanguage = localStorage.getItem('language');
    if (storedLanguage === 'en' || storedLanguage === 'lt') language = storedLanguage;
  } catch (_) {
    // Storage can be blocked (privacy settings); the defaults apply.
  }
  if (theme === 'system') {
    theme = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  root.setAttribute('data-theme', theme);
  root.setAttribute('lang', language);
})();
