/** {@code ourios wal}: the write-ahead log of {@code ourios serve}, offline. */
package dev.ourios.cli.wal;
