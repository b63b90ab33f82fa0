/**
 * SIGTERM and SIGINT turned into a drain of the long-running commands ({@link dev.ourios.server.lifecycle.Shutdown}):
 * stop actions run, running work finishes within the drain timeout, and the process exits 0.
 */
package dev.ourios.server.lifecycle;
