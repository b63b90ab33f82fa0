package dev.ourios.cli.config;

import dev.ourios.store.ObjectStore;
import dev.ourios.store.StoreUri;
import dev.ourios.store.s3.S3Config;
import dev.ourios.store.s3.S3Credentials;
import dev.ourios.store.s3.S3ObjectStore;
import dev.ourios.store.s3.S3StoreFactory;
import dev.ourios.store.s3.S3Timeouts;
import java.net.URI;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the store is and how to reach it.
 *
 * @param uri         a directory, {@code file:///…} or {@code s3://bucket/prefix}
 * @param s3          the S3 client settings when {@code uri} is an S3 URI
 */
public record StoreConfig(String uri, Optional<S3Config> s3) {
    public StoreConfig {
        Objects.requireNonNull(uri, "uri");
        Objects.requireNonNull(s3, "s3");
    }

    static StoreConfig from(Values v) {
        String uri = v.string(ConfigKeys.STORE_URI);
        Optional<URI> endpoint = v.url(ConfigKeys.S3_ENDPOINT);
        String region = v.string(ConfigKeys.S3_REGION);
        Optional<String> keyId = v.optional(ConfigKeys.S3_ACCESS_KEY_ID);
        Optional<String> secret = v.optional(ConfigKeys.S3_SECRET_ACCESS_KEY);
        if (keyId.isPresent() != secret.isPresent()) {
            String missing = keyId.isPresent() ? ConfigKeys.S3_SECRET_ACCESS_KEY : ConfigKeys.S3_ACCESS_KEY_ID;
            throw new ConfigException(missing + ": must be set together with "
                    + (keyId.isPresent() ? ConfigKeys.S3_ACCESS_KEY_ID : ConfigKeys.S3_SECRET_ACCESS_KEY));
        }
        // Validated for every store, so a typo in the file fails 'config check' before it ever matters.
        S3Timeouts timeouts;
        try {
            timeouts = new S3Timeouts(positive(v, ConfigKeys.S3_CONNECT_TIMEOUT),
                    positive(v, ConfigKeys.S3_READ_TIMEOUT), positive(v, ConfigKeys.S3_ATTEMPT_TIMEOUT),
                    positive(v, ConfigKeys.S3_CALL_TIMEOUT));
        } catch (IllegalArgumentException e) {
            throw new ConfigException(v.label(ConfigKeys.S3_ATTEMPT_TIMEOUT) + ": " + e.getMessage(), e);
        }
        if (!StoreUri.isS3(uri)) {
            if (uri.contains("://") && !uri.startsWith("file://")) {
                throw new ConfigException(ConfigKeys.STORE_URI + ": unsupported store URI '" + uri
                        + "' (use a path, file:///... or s3://bucket/prefix)");
            }
            return new StoreConfig(uri, Optional.empty());
        }
        S3Config c;
        try {
            c = S3StoreFactory.parse(uri).withRegion(region);
        } catch (IllegalArgumentException e) {
            throw new ConfigException(ConfigKeys.STORE_URI + ": " + e.getMessage(), e);
        }
        if (endpoint.isPresent()) {
            c = c.withEndpoint(endpoint.get());
        }
        c = c.withTimeouts(timeouts);
        if (keyId.isPresent()) {
            c = c.withCredentials(new S3Credentials(keyId.get(), secret.get()));
        }
        return new StoreConfig(uri, Optional.of(c));
    }

    private static java.time.Duration positive(Values v, String key) {
        java.time.Duration d = v.duration(key);
        if (d.isZero()) {
            throw new ConfigException(v.label(key) + ": must be positive");
        }
        return d;
    }

    public ObjectStore open() {
        return s3.<ObjectStore>map(S3ObjectStore::new).orElseGet(() -> StoreUri.openLocal(uri));
    }
}
