package dev.ourios.store.s3;

import dev.ourios.store.StoreException;
import java.io.ByteArrayInputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CompletedPart;

/**
 * The S3 calls behind one {@link S3AtomicOutput}: a single PUT, or create / upload part / complete / abort of a
 * multipart upload. Kept apart from the buffering so each half stays small.
 */
final class S3Uploader {
    private static final Logger LOG = LoggerFactory.getLogger(S3Uploader.class);

    private final S3Client client;
    private final String bucket;
    private final String s3Key;
    private final String location;
    private final S3ErrorTranslator errors;
    private final List<CompletedPart> parts = new ArrayList<>();
    private Optional<String> uploadId = Optional.empty();

    S3Uploader(S3Client client, String bucket, String s3Key, String location, S3ErrorTranslator errors) {
        this.client = client;
        this.bucket = bucket;
        this.s3Key = s3Key;
        this.location = location;
        this.errors = errors;
    }

    String location() {
        return location;
    }

    boolean multipartStarted() {
        return uploadId.isPresent();
    }

    void putWhole(byte[] data, int len) throws StoreException {
        try {
            client.putObject(b -> b.bucket(bucket).key(s3Key), body(data, len));
        } catch (SdkException e) {
            throw errors.translate(e, "PUT", location);
        }
    }

    void uploadPart(byte[] data, int len) throws StoreException {
        try {
            if (uploadId.isEmpty()) {
                uploadId = Optional.of(client.createMultipartUpload(b -> b.bucket(bucket).key(s3Key)).uploadId());
                LOG.debug("started multipart upload {} for {}", uploadId.get(), location);
            }
            int partNumber = parts.size() + 1;
            String eTag = client.uploadPart(b -> b.bucket(bucket).key(s3Key).uploadId(uploadId.get())
                    .partNumber(partNumber), body(data, len)).eTag();
            parts.add(CompletedPart.builder().partNumber(partNumber).eTag(eTag).build());
        } catch (SdkException e) {
            throw errors.translate(e, "upload part " + (parts.size() + 1) + " of", location);
        }
    }

    void completeMultipart() throws StoreException {
        try {
            client.completeMultipartUpload(b -> b.bucket(bucket).key(s3Key).uploadId(uploadId.orElseThrow())
                    .multipartUpload(m -> m.parts(parts)));
            LOG.debug("completed multipart upload of {} in {} parts", location, parts.size());
        } catch (SdkException e) {
            throw errors.translate(e, "complete multipart upload of", location);
        }
    }

    /** Best effort: a leftover upload is invisible to readers and a bucket lifecycle rule should expire it. */
    void abortMultipart() {
        if (uploadId.isEmpty()) {
            return;
        }
        try {
            client.abortMultipartUpload(b -> b.bucket(bucket).key(s3Key).uploadId(uploadId.get()));
        } catch (SdkException e) {
            LOG.warn("could not abort multipart upload {} of {}: {}", uploadId.get(), location,
                    errors.translate(e, "abort multipart upload of", location).getMessage());
        }
        uploadId = Optional.empty();
    }

    /** A body that re-reads the caller's buffer on a retry instead of copying it up front. */
    private static RequestBody body(byte[] data, int len) {
        return RequestBody.fromContentProvider(() -> new ByteArrayInputStream(data, 0, len), len,
                "application/octet-stream");
    }
}
