package dev.ourios.server.tail;

import java.time.Duration;
import java.util.Objects;

/**
 * Live tail ({@code GET /v1/tail}) bounds.
 *
 * @param maxClients tails open at once (each holds one HTTP handler thread while it is open); beyond it 429
 * @param queueRows  rows waiting for one client at most; rows beyond it are dropped and the client told how many
 * @param heartbeat  a comment line is sent after this long without rows, so proxies and clients see the stream live
 */
public record TailSettings(int maxClients, int queueRows, Duration heartbeat) {
    public TailSettings {
        Objects.requireNonNull(heartbeat, "heartbeat");
        if (maxClients < 0 || queueRows < 1 || heartbeat.isNegative() || heartbeat.isZero()) {
            throw new IllegalArgumentException("maxClients must be >= 0, queueRows >= 1 and heartbeat positive");
        }
    }
}
