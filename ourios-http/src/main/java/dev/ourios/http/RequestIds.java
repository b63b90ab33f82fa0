package dev.ourios.http;

import java.util.HexFormat;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Request ids: 16 random hex digits, unique enough to find one request in a day of logs, and meaningless to
 * anyone who reads them (no counter, no time, no host).
 */
public final class RequestIds {
    private RequestIds() {
    }

    public static String next() {
        return HexFormat.of().toHexDigits(ThreadLocalRandom.current().nextLong());
    }
}
