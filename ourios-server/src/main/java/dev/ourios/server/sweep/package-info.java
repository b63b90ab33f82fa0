/**
 * The compaction daemon's schedule ({@link dev.ourios.server.sweep.SweepLoop}: sweep, wait, repeat until a stop),
 * shared by {@code ourios serve} and {@code ourios compact}, and the service's events for it
 * ({@link dev.ourios.server.sweep.SweepEvents}).
 */
package dev.ourios.server.sweep;
