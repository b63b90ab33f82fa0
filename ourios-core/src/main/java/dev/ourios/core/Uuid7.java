package dev.ourios.core;

import java.time.Clock;
import java.util.UUID;
import java.util.random.RandomGenerator;

/** UUIDv7 (RFC 9562): 48-bit millisecond timestamp, version 7, variant 2, random rest. Names sort by creation time. */
public final class Uuid7 {
    private final Clock clock;
    private final RandomGenerator random;

    public Uuid7(Clock clock, RandomGenerator random) {
        this.clock = clock;
        this.random = random;
    }

    public static Uuid7 system() {
        return new Uuid7(Clock.systemUTC(), new java.security.SecureRandom());
    }

    public UUID next() {
        return at(clock.millis());
    }

    public UUID at(long epochMillis) {
        long msb = (epochMillis & 0xFFFF_FFFF_FFFFL) << 16 | 0x7000L | (random.nextLong() & 0x0FFFL);
        long lsb = (random.nextLong() & 0x3FFF_FFFF_FFFF_FFFFL) | 0x8000_0000_0000_0000L;
        return new UUID(msb, lsb);
    }

    /** True if {@code s} is a lower-case canonical UUID string of version 7. */
    public static boolean isUuid7(String s) {
        return s.length() == 36 && s.matches("[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
    }
}
