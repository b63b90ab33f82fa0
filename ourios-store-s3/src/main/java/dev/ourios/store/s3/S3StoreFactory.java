package dev.ourios.store.s3;

import java.net.URI;
import java.util.Optional;

/** Opens an {@link S3ObjectStore} from a {@code --store s3://bucket/prefix} value. */
public final class S3StoreFactory {
    private S3StoreFactory() {
    }

    /**
     * @param uri      {@code s3://bucket} or {@code s3://bucket/some/prefix}
     * @param endpoint an S3-compatible endpoint such as {@code http://127.0.0.1:9000}; empty for AWS
     */
    public static S3ObjectStore open(String uri, Optional<String> endpoint) {
        return open(uri, endpoint, S3Timeouts.DEFAULTS);
    }

    /** As above, with the request deadlines given. */
    public static S3ObjectStore open(String uri, Optional<String> endpoint, S3Timeouts timeouts) {
        S3Config config = parse(uri).withTimeouts(timeouts);
        if (endpoint.isPresent()) {
            config = config.withEndpoint(parseEndpoint(endpoint.get()));
        }
        return new S3ObjectStore(config);
    }

    /** The config for an {@code s3://} URI with defaults for everything else. */
    public static S3Config parse(String uri) {
        if (uri == null || !uri.startsWith("s3://")) {
            throw new IllegalArgumentException("not an S3 URI (expected s3://bucket/prefix): '" + uri + "'");
        }
        String rest = uri.substring("s3://".length());
        int slash = rest.indexOf('/');
        String bucket = slash < 0 ? rest : rest.substring(0, slash);
        String prefix = slash < 0 ? "" : rest.substring(slash + 1);
        if (bucket.isEmpty()) {
            throw new IllegalArgumentException("S3 URI has no bucket: '" + uri + "'");
        }
        if (prefix.contains("//")) {
            throw new IllegalArgumentException("S3 URI prefix has an empty segment: '" + uri + "'");
        }
        return S3Config.of(bucket, prefix);
    }

    private static URI parseEndpoint(String endpoint) {
        URI u;
        try {
            u = URI.create(endpoint);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("invalid S3 endpoint '" + endpoint + "': " + e.getMessage(), e);
        }
        if (u.getScheme() == null || !(u.getScheme().equals("http") || u.getScheme().equals("https"))
                || u.getHost() == null) {
            throw new IllegalArgumentException("invalid S3 endpoint '" + endpoint + "' (expected http(s)://host[:port])");
        }
        return u;
    }
}
