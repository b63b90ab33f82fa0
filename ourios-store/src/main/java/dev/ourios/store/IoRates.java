package dev.ourios.store;

/**
 * Bytes per second a piece of work may read from and write to the store; 0 in a direction means unthrottled.
 *
 * @param readBytesPerSecond  bytes returned by reads (ranged reads and streams), per second
 * @param writeBytesPerSecond bytes written to new objects, per second
 */
public record IoRates(long readBytesPerSecond, long writeBytesPerSecond) {
    public static final IoRates UNLIMITED = new IoRates(0, 0);

    public IoRates {
        if (readBytesPerSecond < 0) {
            throw new IllegalArgumentException("read rate must not be negative (got " + readBytesPerSecond + ")");
        }
        if (writeBytesPerSecond < 0) {
            throw new IllegalArgumentException("write rate must not be negative (got " + writeBytesPerSecond + ")");
        }
    }

    public boolean unlimited() {
        return readBytesPerSecond == 0 && writeBytesPerSecond == 0;
    }
}
