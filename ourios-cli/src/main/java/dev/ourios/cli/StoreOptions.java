package dev.ourios.cli;

import dev.ourios.cli.config.ConfigKey;
import dev.ourios.cli.config.ConfigKeys;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.StoreUri;
import dev.ourios.store.s3.S3StoreFactory;
import java.util.Optional;
import java.util.function.UnaryOperator;
import picocli.CommandLine.Option;

/**
 * {@code --store URI} and {@code --s3-endpoint}, shared by every command that touches a store. A decorator given at
 * construction wraps every store opened (the crash harness hands one that halts the process at a protocol step);
 * the command line {@code ourios} runs builds none.
 */
public final class StoreOptions {
    private final UnaryOperator<ObjectStore> decorator;

    @Option(names = "--store", paramLabel = "URI",
            description = "Store: a directory, file:///..., or s3://bucket/prefix (default: $OURIOS_STORE or ./ourios-data)")
    String store;

    @Option(names = "--s3-endpoint", paramLabel = "URL",
            description = "S3 endpoint for S3-compatible servers (default: $OURIOS_S3_ENDPOINT); implies path-style")
    String s3Endpoint;

    /** Stores as opened. */
    public StoreOptions() {
        this(UnaryOperator.identity());
    }

    /** Stores wrapped by {@code decorator} once opened and checked. */
    public StoreOptions(UnaryOperator<ObjectStore> decorator) {
        this.decorator = decorator;
    }

    public String uri() {
        if (store != null && !store.isBlank()) {
            return store;
        }
        ConfigKey key = ConfigKeys.standard().get(ConfigKeys.STORE_URI);
        String env = System.getenv(key.env());
        return env != null && !env.isBlank() ? env : key.defaultValue().orElseThrow();
    }

    /** The store for a command that reads it: refused (exit 2) unless it exists and can be read. */
    public ObjectStore open() {
        return checked(false);
    }

    /** The store for a command that only writes to it: a missing local directory is created. */
    public ObjectStore openForWriting() {
        return checked(true);
    }

    private ObjectStore checked(boolean create) {
        ObjectStore s = unchecked();
        try {
            if (create) {
                StoreCheck.requireWritable(s, label());
                StoreCheck.requireMarker(s, label());
            } else {
                StoreCheck.requireExisting(s, label());
            }
            return decorator.apply(s);
        } catch (RuntimeException e) {
            try {
                s.close();
            } catch (java.io.IOException | RuntimeException suppressed) {
                e.addSuppressed(suppressed);
            }
            throw e;
        }
    }

    /** How error lines name the store: the flag and the value it resolved to. */
    private String label() {
        return "--store " + uri();
    }

    private ObjectStore unchecked() {
        String uri = uri();
        if (StoreUri.isS3(uri)) {
            String endpoint = s3Endpoint != null ? s3Endpoint
                    : System.getenv(ConfigKeys.standard().get(ConfigKeys.S3_ENDPOINT).env());
            try {
                return S3StoreFactory.open(uri, Optional.ofNullable(endpoint).filter(e -> !e.isBlank()),
                        S3TimeoutSettings.fromEnvironment(System.getenv()));
            } catch (IllegalArgumentException e) {
                throw new UsageException("--store: " + e.getMessage());
            }
        }
        if (uri.contains("://") && !uri.startsWith("file://")) {
            throw new UsageException("--store: unsupported store URI '" + uri + "' (use a path, file:///... or s3://bucket/prefix)");
        }
        return StoreUri.openLocal(uri);
    }
}
