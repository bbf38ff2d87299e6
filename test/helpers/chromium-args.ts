// Debian's chromium, headless on an offline machine: the flags every launch here needs (no sandbox as root, no GPU,
// nothing reaching the network on its own).
export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];
