package dev.ourios.store.s3;

import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * Where an {@link S3ObjectStore} lives and how it talks to S3.
 *
 * @param bucket            the bucket name
 * @param prefix            key prefix inside the bucket, without leading or trailing '/' ("" for the bucket root)
 * @param endpoint          an S3-compatible endpoint (s3proxy, MinIO…); when present, path-style addressing is used
 * @param region            the signing region
 * @param staticCredentials fixed credentials (tests); empty = the AWS default credentials chain
 * @param partSize          multipart part size, and the size up to which a streamed write is buffered for one PUT
 * @param maxAttempts       attempts per request, including the first, for throttling, 5xx and I/O errors
 * @param timeouts          connect, read, per-attempt and per-call deadlines of every request
 */
public record S3Config(String bucket, String prefix, Optional<URI> endpoint, String region,
                       Optional<S3Credentials> staticCredentials, int partSize, int maxAttempts,
                       S3Timeouts timeouts) {

    public static final String DEFAULT_REGION = "us-east-1";
    /** S3 requires every part but the last to be at least 5 MiB. */
    public static final int MIN_PART_SIZE = 5 << 20;
    public static final int DEFAULT_PART_SIZE = 8 << 20;
    public static final int DEFAULT_MAX_ATTEMPTS = 4;

    public S3Config {
        Objects.requireNonNull(bucket, "bucket");
        Objects.requireNonNull(endpoint, "endpoint");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(staticCredentials, "staticCredentials");
        Objects.requireNonNull(timeouts, "timeouts");
        if (bucket.isEmpty() || bucket.contains("/")) {
            throw new IllegalArgumentException("invalid bucket name '" + bucket + "'");
        }
        prefix = trimSlashes(prefix == null ? "" : prefix);
        if (partSize < MIN_PART_SIZE) {
            throw new IllegalArgumentException("partSize must be at least 5 MiB, got " + partSize);
        }
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be at least 1, got " + maxAttempts);
        }
    }

    /** With the default deadlines. */
    public S3Config(String bucket, String prefix, Optional<URI> endpoint, String region,
            Optional<S3Credentials> staticCredentials, int partSize, int maxAttempts) {
        this(bucket, prefix, endpoint, region, staticCredentials, partSize, maxAttempts, S3Timeouts.DEFAULTS);
    }

    /** Bucket and prefix on AWS with the default region, credentials chain, part size and retries. */
    public static S3Config of(String bucket, String prefix) {
        return new S3Config(bucket, prefix, Optional.empty(), DEFAULT_REGION, Optional.empty(),
                DEFAULT_PART_SIZE, DEFAULT_MAX_ATTEMPTS);
    }

    public S3Config withEndpoint(URI newEndpoint) {
        return new S3Config(bucket, prefix, Optional.of(newEndpoint), region, staticCredentials, partSize, maxAttempts,
                timeouts);
    }

    public S3Config withRegion(String newRegion) {
        return new S3Config(bucket, prefix, endpoint, newRegion, staticCredentials, partSize, maxAttempts,
                timeouts);
    }

    public S3Config withCredentials(S3Credentials credentials) {
        return new S3Config(bucket, prefix, endpoint, region, Optional.of(credentials), partSize, maxAttempts,
                timeouts);
    }

    public S3Config withPrefix(String newPrefix) {
        return new S3Config(bucket, newPrefix, endpoint, region, staticCredentials, partSize, maxAttempts,
                timeouts);
    }

    public S3Config withMaxAttempts(int attempts) {
        return new S3Config(bucket, prefix, endpoint, region, staticCredentials, partSize, attempts, timeouts);
    }

    public S3Config withTimeouts(S3Timeouts newTimeouts) {
        return new S3Config(bucket, prefix, endpoint, region, staticCredentials, partSize, maxAttempts, newTimeouts);
    }

    /** Path-style addressing whenever an endpoint is given: S3-compatible servers rarely do virtual hosts. */
    public boolean pathStyle() {
        return endpoint.isPresent();
    }

    /** The prefix as it is prepended to keys: "" or "prefix/". */
    public String keyPrefix() {
        return prefix.isEmpty() ? "" : prefix + "/";
    }

    /** The endpoint for messages: the override, or AWS's regional endpoint. */
    public String endpointForMessages() {
        return endpoint.map(URI::toString).orElse("https://s3." + region + ".amazonaws.com");
    }

    private static String trimSlashes(String s) {
        int start = 0;
        int end = s.length();
        while (start < end && s.charAt(start) == '/') {
            start++;
        }
        while (end > start && s.charAt(end - 1) == '/') {
            end--;
        }
        return s.substring(start, end);
    }
}
