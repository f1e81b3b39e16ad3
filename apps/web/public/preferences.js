// Runs before the first paint so a dark-theme visitor never sees a white flash and screen readers
// get the right language at once. Keys and defaults mirror @debesis/contract (STORAGE_KEYS,
// DEFAULT_THEME, DEFAULT_LANGUAGE); src/theme and src/i18n take over once the app has loaded.
//
// On a landing page whose first screen is prerendered (vite.config.ts landingPage) it also says
// how this visitor differs from the one it was rendered for (`data-prerender-differs` on <html>:
// src/styles/prerender.css hides what would be wrong, main.tsx renders afresh instead of
// hydrating), and loads the app's code once the page has painted.
(function () {
  var root = document.documentElement;
  var theme = 'light';
  var storedThemeChoice = null;
  var language = 'en';
  var stored = {};
  try {
    storedThemeChoice = localStorage.getItem('theme');
    if (storedThemeChoice === 'light' || storedThemeChoice === 'dark' || storedThemeChoice === 'system') {
      theme = storedThemeChoice;
    }
    var storedLanguage = localStorage.getItem('language');
    if (storedLanguage === 'en' || storedLanguage === 'lt') language = storedLanguage;
    stored.session = localStorage.getItem('token') !== null || localStorage.getItem('refresh_token') !== null;
    stored.consent = localStorage.getItem('cookie_consent') !== null;
  } catch (_) {
    // Storage can be blocked (privacy settings); the defaults apply.
  }
  var differs = [];
  if (stored.session) differs.push('session');
  if (stored.consent) differs.push('consent');
  if (theme !== 'light') differs.push('theme');
  if (language !== 'en') differs.push('language');
  if (window.matchMedia && window.matchMedia('(prefers-reduced-motion: reduce)').matches)
    differs.push('motion');
  if (theme === 'system') {
    theme = window.matchMedia && window.matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light';
  }
  root.setAttribute('data-theme', theme);
  root.setAttribute('lang', language);

  // The year the page was prerendered in, for its footer's copyright line.
  var prerenderedYear = root.getAttribute('data-prerendered-year');
  if (prerenderedYear === null) return;
  if (prerenderedYear !== String(new Date().getFullYear())) differs.push('year');
  if (differs.length > 0) root.setAttribute('data-prerender-differs', differs.join(' '));

  // Adding a modulepreload link costs a throttled phone several milliseconds, so one is added
  // per task (eighteen in one task blocked the page for ~120 ms in Lighthouse's mobile run), and
  // the app's entry after them.
  function loadAppCode() {
    var block = document.getElementById('app-code');
    if (!block || block.hasAttribute('data-loaded')) return;
    block.setAttribute('data-loaded', '');
    var code = JSON.parse(block.textContent);
    var modules = code.modules.slice();
    (function next() {
      var href = modules.shift();
      if (href === undefined) {
        var script = document.createElement('script');
        script.type = 'module';
        script.crossOrigin = '';
        script.src = code.entry;
        document.body.appendChild(script);
        return;
      }
      var link = document.createElement('link');
      link.rel = 'modulepreload';
      link.crossOrigin = '';
      link.href = href;
      document.head.appendChild(link);
      setTimeout(next, 0);
    })();
  }

  // After the first paint: a frame, then a task. A hidden tab gets no frames, so a timer too.
  document.addEventListener('DOMContentLoaded', function () {
    requestAnimationFrame(function () {
      setTimeout(loadAppCode, 0);
    });
    setTimeout(loadAppCode, 1000);
  });
})();
