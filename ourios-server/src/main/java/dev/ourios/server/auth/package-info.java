/**
 * Authorization in {@code ourios serve}: the listen-address rule ({@link dev.ourios.server.auth.ListenGuard}), the
 * authorizer built from {@link dev.ourios.server.auth.AuthSettings} ({@link dev.ourios.server.auth.ServeAuth}), the denial metric
 * ({@link dev.ourios.server.auth.AuthMetrics}) and the SIGHUP reload of the keys file
 * ({@link dev.ourios.server.auth.ReloadOnHangup}).
 */
package dev.ourios.server.auth;
