/* global localStorage, matchMedia, document */
// Apply the saved theme before first paint so the page does not flash light. A file, not an
// inline script: the Content-Security-Policy allows scripts from this origin only.
;(function applySavedTheme() {
  let dark = false
  try {
    const saved = localStorage.getItem('pulse.theme')
    dark = saved ? saved === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches
  } catch {
    // Storage blocked: the app applies the system preference once it starts.
    return
  }
  if (dark) document.documentElement.classList.add('dark')
})()
