/**
 * The service's log: one JSON object per line on stderr ({@link dev.ourios.server.events.EventLog}), with whatever
 * else writes to stderr turned into such lines too ({@link dev.ourios.server.events.JsonStderr}).
 */
package dev.ourios.server.events;
