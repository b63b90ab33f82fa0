package dev.ourios.store;

import java.time.Instant;
import java.util.Objects;

/**
 * An upload that was begun and neither completed nor aborted (an S3 multipart upload whose writer died): not an
 * object, invisible to listings and reads, but its parts are stored, and billed, until it is aborted.
 *
 * @param key       the store key the upload would have created
 * @param uploadId  the server's id for the upload
 * @param initiated when the upload was begun, by the server's clock
 */
public record IncompleteUpload(String key, String uploadId, Instant initiated) {
    public IncompleteUpload {
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(uploadId, "uploadId");
        Objects.requireNonNull(initiated, "initiated");
    }
}
