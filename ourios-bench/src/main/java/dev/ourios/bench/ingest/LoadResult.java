package dev.ourios.bench.ingest;

/**
 * What the clients saw over one timed window: acknowledged (200) requests, their records and protobuf bytes, the
 * requests turned away (429/503: the receiver over its limits) or failed, the window's length and the ack latency
 * percentiles of the acknowledged requests (send to 200, milliseconds).
 */
public record LoadResult(long requests, long records, long bytes, long refused, long failed, double seconds,
        double p50Ms, double p99Ms, double maxMs) {

    public double recordsPerSecond() {
        return records / seconds;
    }

    public double mibPerSecond() {
        return bytes / seconds / (1 << 20);
    }
}
