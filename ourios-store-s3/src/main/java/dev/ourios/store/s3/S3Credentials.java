package dev.ourios.store.s3;

import java.util.Objects;

/**
 * A static access key pair, for tests and S3-compatible servers. Production uses the AWS default credentials chain
 * instead. {@link #toString()} never shows the secret, so a config can be logged safely.
 */
public record S3Credentials(String accessKeyId, String secretAccessKey) {
    public S3Credentials {
        Objects.requireNonNull(accessKeyId, "accessKeyId");
        Objects.requireNonNull(secretAccessKey, "secretAccessKey");
    }

    @Override
    public String toString() {
        return "S3Credentials[accessKeyId=" + accessKeyId + ", secretAccessKey=***]";
    }
}
