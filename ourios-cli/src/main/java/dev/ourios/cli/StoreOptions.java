package dev.ourios.cli;

import dev.ourios.store.ObjectStore;
import dev.ourios.store.StoreUri;
import picocli.CommandLine.Option;

/** {@code --store URI} and {@code --s3-endpoint}, shared by every command that touches a store. */
public final class StoreOptions {
    @Option(names = "--store", paramLabel = "URI",
            description = "Store: a directory, file:///..., or s3://bucket/prefix (default: $OURIOS_STORE or ./ourios-data)")
    String store;

    @Option(names = "--s3-endpoint", paramLabel = "URL",
            description = "S3 endpoint for S3-compatible servers (default: $OURIOS_S3_ENDPOINT); implies path-style")
    String s3Endpoint;

    public String uri() {
        if (store != null && !store.isBlank()) {
            return store;
        }
        String env = System.getenv("OURIOS_STORE");
        return env != null && !env.isBlank() ? env : "./ourios-data";
    }

    public ObjectStore open() {
        String uri = uri();
        if (StoreUri.isS3(uri)) {
            throw new UsageException("--store: S3 stores (" + uri + ") are not supported by this build yet");
        }
        return StoreUri.openLocal(uri);
    }
}
