/**
 * Authorization in {@code ourios serve}: the listen-address rule ({@link dev.ourios.cli.auth.ListenGuard}), the
 * authorizer built from the configuration ({@link dev.ourios.cli.auth.ServeAuth}), the denial metric
 * ({@link dev.ourios.cli.auth.AuthMetrics}) and the SIGHUP reload of the keys file
 * ({@link dev.ourios.cli.auth.ReloadOnHangup}).
 */
package dev.ourios.cli.auth;
