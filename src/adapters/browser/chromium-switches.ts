/** The features playwright-core's launch turns off, which a --disable-features of ours would otherwise turn back on. */
export const PLAYWRIGHT_DISABLED_FEATURES = [
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'TcpPortRandomizationWin',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  'msForceBrowserSignIn',
  'msEdgeUpdateLaunchServicesPreferredVersion',
];

/** Chromium switches that keep a headless run to the pages it is sent to: no background calls home, no UDP around the proxy. */
export const QUIET_CHROMIUM = [
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--disable-domain-reliability',
  '--disable-breakpad',
  '--no-pings',
  '--disable-dev-shm-usage',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  // Chromium reads only the last --disable-features: playwright-core's own list (as pinned) comes first, then ours.
  `--disable-features=${[...PLAYWRIGHT_DISABLED_FEATURES, 'DialMediaRouteProvider', 'AutofillServerCommunication'].join(',')}`,
  // Where Chromium would sign in and fetch its components: nowhere, so neither shows as a refused host of the step.
  '--gaia-url=http://127.0.0.1:9',
  '--component-updater=url-source=http://127.0.0.1:9/',
];
