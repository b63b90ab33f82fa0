/**
 * The web UI of {@code ourios serve}: static files from the jar served at {@code /} on the query port
 * ({@link dev.ourios.server.ui.UiRoutes}), with a strict Content-Security-Policy, gzip and ETags. The page itself is
 * plain JavaScript that calls the query API with the visitor's key; it holds no server-side state.
 */
package dev.ourios.server.ui;
