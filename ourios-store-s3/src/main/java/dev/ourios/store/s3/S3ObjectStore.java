package dev.ourios.store.s3;

import dev.ourios.store.AtomicOutput;
import dev.ourios.store.IncompleteUpload;
import dev.ourios.store.NoSuchObjectException;
import dev.ourios.store.ObjectInfo;
import dev.ourios.store.ObjectStore;
import dev.ourios.store.RandomAccessInput;
import dev.ourios.store.StoreException;
import dev.ourios.store.StoreRequests;
import dev.ourios.store.ThreadRequestCounts;
import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import software.amazon.awssdk.core.ResponseInputStream;
import software.amazon.awssdk.core.exception.SdkException;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.CommonPrefix;
import software.amazon.awssdk.services.s3.model.GetObjectResponse;
import software.amazon.awssdk.services.s3.model.HeadObjectResponse;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsRequest;
import software.amazon.awssdk.services.s3.model.ListMultipartUploadsResponse;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.MultipartUpload;
import software.amazon.awssdk.services.s3.model.S3Exception;
import software.amazon.awssdk.services.s3.model.S3Object;

/**
 * The object store on S3 (or an S3-compatible server) under {@code s3://bucket/prefix}: store key {@code k} is the
 * S3 key {@code prefix/k}. Reads are ranged GETs, never whole objects; streamed writes become one PUT or a
 * multipart upload, both of which appear atomically at the final key; create-only writes use
 * {@code If-None-Match: *}, which S3 evaluates atomically.
 */
public final class S3ObjectStore implements ObjectStore, ThreadRequestCounts {
    private static final Logger LOG = LoggerFactory.getLogger(S3ObjectStore.class);
    static final int LISTED_OBJECTS = 20_000;
    /** S3's own maximum keys per ListObjectsV2 page. */
    static final int MAX_LIST_PAGE_SIZE = 1000;

    private final S3Client client;
    private final S3Config config;
    private final RequestCounters counters;
    private final int listPageSize;
    private final S3ErrorTranslator errors;
    /** Set once the bucket is known to exist, so a 404 on HEAD can be told apart from a missing bucket cheaply. */
    private final AtomicBoolean bucketSeen = new AtomicBoolean();
    /** Objects the listings returned, opened without a HEAD (about 100 bytes an entry). */
    private final ListedObjects listed = new ListedObjects(LISTED_OBJECTS);

    public S3ObjectStore(S3Config config) {
        this(config, MAX_LIST_PAGE_SIZE);
    }

    /** With a smaller listing page, so tests can exercise pagination with a handful of keys. */
    S3ObjectStore(S3Config config, int listPageSize) {
        this(config, new RequestCounters(), listPageSize);
    }

    private S3ObjectStore(S3Config config, RequestCounters counters, int listPageSize) {
        this(S3ClientFactory.create(config, counters), config, counters, listPageSize);
    }

    /** For callers that build their own client; {@code counters} only counts if the client reports to it. */
    S3ObjectStore(S3Client client, S3Config config, RequestCounters counters, int listPageSize) {
        if (listPageSize < 1 || listPageSize > MAX_LIST_PAGE_SIZE) {
            throw new IllegalArgumentException("listPageSize must be in [1, 1000], got " + listPageSize);
        }
        this.client = client;
        this.config = config;
        this.counters = counters;
        this.listPageSize = listPageSize;
        this.errors = new S3ErrorTranslator(config);
        LOG.debug("S3 store s3://{}/{} at {} (path-style: {})", config.bucket(), config.prefix(),
                config.endpointForMessages(), config.pathStyle());
    }

    public S3Config config() {
        return config;
    }

    /** The requests this store has sent so far (retries included). */
    public RequestCounters counters() {
        return counters;
    }

    @Override
    public StoreRequests requestsOnCurrentThread() {
        return counters.currentThread();
    }

    @Override
    public List<String> listDirectories(String dirPrefix) throws IOException {
        String prefix = config.keyPrefix() + S3Keys.requireDir(dirPrefix);
        List<String> out = new ArrayList<>();
        listPages(prefix, dirPrefix, page -> {
            for (CommonPrefix cp : page.commonPrefixes()) {
                String name = cp.prefix().substring(prefix.length(), cp.prefix().length() - 1);
                if (!name.isEmpty()) {
                    out.add(name);
                }
            }
        });
        out.sort(null);
        return out;
    }

    @Override
    public List<ObjectInfo> listObjects(String dirPrefix) throws IOException {
        String prefix = config.keyPrefix() + S3Keys.requireDir(dirPrefix);
        List<ObjectInfo> out = new ArrayList<>();
        listPages(prefix, dirPrefix, page -> {
            for (S3Object o : page.contents()) {
                // "dir/" marker objects created by consoles and other tools are not objects of this store
                if (!o.key().endsWith("/")) {
                    out.add(listed(o));
                }
            }
        });
        // S3 sorts by UTF-8 bytes; sort by String like the local store so both agree on non-ASCII keys.
        out.sort(Comparator.comparing(ObjectInfo::key));
        return out;
    }

    /** Every request is a round trip to the S3 server. */
    @Override
    public boolean isRemote() {
        return true;
    }

    /** The subtree in one listing without a delimiter: one LIST request per page of keys. */
    @Override
    public List<ObjectInfo> listTree(String dirPrefix) throws IOException {
        String prefix = config.keyPrefix() + S3Keys.requireDir(dirPrefix);
        List<ObjectInfo> out = new ArrayList<>();
        listPages(prefix, dirPrefix, false, page -> {
            for (S3Object o : page.contents()) {
                if (!o.key().endsWith("/")) { // "dir/" markers, as in listObjects
                    out.add(listed(o));
                }
            }
        });
        out.sort(Comparator.comparing(ObjectInfo::key));
        return out;
    }

    /** The listing entry of {@code o}, remembered so that opening it needs no HEAD. */
    private ObjectInfo listed(S3Object o) {
        String key = o.key().substring(config.keyPrefix().length());
        listed.remember(key, o.size(), o.eTag());
        return new ObjectInfo(key, o.size(), o.lastModified());
    }

    private void listPages(String prefix, String dirPrefix, Consumer<ListObjectsV2Response> pageConsumer)
            throws StoreException {
        listPages(prefix, dirPrefix, true, pageConsumer);
    }

    private void listPages(String prefix, String dirPrefix, boolean oneLevel,
            Consumer<ListObjectsV2Response> pageConsumer) throws StoreException {
        String token = null;
        try {
            do {
                ListObjectsV2Request.Builder req = ListObjectsV2Request.builder()
                        .bucket(config.bucket()).prefix(prefix).maxKeys(listPageSize);
                if (oneLevel) {
                    req.delimiter("/");
                }
                if (token != null) {
                    req.continuationToken(token);
                }
                ListObjectsV2Response page = client.listObjectsV2(req.build());
                bucketSeen.set(true);
                pageConsumer.accept(page);
                token = Boolean.TRUE.equals(page.isTruncated()) ? page.nextContinuationToken() : null;
            } while (token != null);
        } catch (SdkException e) {
            throw errors.translate(e, "LIST", describe(dirPrefix));
        }
    }

    @Override
    public Optional<ObjectInfo> stat(String key) throws IOException {
        return head(key).map(h -> new ObjectInfo(key, h.contentLength(), h.lastModified()));
    }

    /** HEAD of one object; empty if it does not exist (after making sure the bucket does). */
    private Optional<HeadObjectResponse> head(String key) throws StoreException {
        String s3Key = s3Key(key);
        try {
            HeadObjectResponse h = client.headObject(b -> b.bucket(config.bucket()).key(s3Key));
            bucketSeen.set(true);
            return Optional.of(h);
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                // HEAD responses have no body, so NoSuchKey and NoSuchBucket look the same.
                requireBucket();
                return Optional.empty();
            }
            throw errors.translate(e, "HEAD", describe(key));
        } catch (SdkException e) {
            throw errors.translate(e, "HEAD", describe(key));
        }
    }

    private void requireBucket() throws StoreException {
        if (bucketSeen.get()) {
            return;
        }
        checkBucket();
    }

    /**
     * One HEAD of the bucket, whatever this store has seen: throws {@link NoSuchBucketException} if it does not
     * exist, another {@link StoreException} if it cannot be reached or read. Commands call it once before they
     * start, so a misspelt bucket is refused up front instead of reading as an empty store.
     */
    public void checkBucket() throws StoreException {
        try {
            client.headBucket(b -> b.bucket(config.bucket()));
            bucketSeen.set(true);
        } catch (S3Exception e) {
            if (e.statusCode() == 404) {
                throw errors.noSuchBucket(e);
            }
            throw errors.translate(e, "HEAD", "s3://" + config.bucket());
        } catch (SdkException e) {
            throw errors.translate(e, "HEAD", "s3://" + config.bucket());
        }
    }

    @Override
    public RandomAccessInput openRandomAccess(String key) throws IOException {
        Optional<ListedObjects.Listed> known = listed.find(key);
        if (known.isPresent()) {
            return new S3RandomAccessInput(client, config.bucket(), s3Key(key), known.get().size(),
                    known.get().eTag(), describe(key), errors, () -> listed.forget(key));
        }
        HeadObjectResponse h = head(key).orElseThrow(() -> new NoSuchObjectException("no such object: " + describe(key)));
        return new S3RandomAccessInput(client, config.bucket(), s3Key(key), h.contentLength(), h.eTag(),
                describe(key), errors, () -> listed.forget(key));
    }

    @Override
    public InputStream openStream(String key) throws IOException {
        String s3Key = s3Key(key);
        try {
            ResponseInputStream<GetObjectResponse> in = client.getObject(b -> b.bucket(config.bucket()).key(s3Key));
            bucketSeen.set(true);
            return new AbortingInputStream(in);
        } catch (SdkException e) {
            throw errors.translate(e, "GET", describe(key));
        }
    }

    @Override
    public AtomicOutput create(String key) throws IOException {
        listed.forget(key); // a write replaces what a listing said of the key
        return new S3AtomicOutput(new S3Uploader(client, config.bucket(), s3Key(key), describe(key), errors),
                config.partSize());
    }

    @Override
    public boolean putIfAbsent(String key, byte[] content) throws IOException {
        String s3Key = s3Key(key);
        try {
            client.putObject(b -> b.bucket(config.bucket()).key(s3Key).ifNoneMatch("*"), RequestBody.fromBytes(content));
            return true;
        } catch (S3Exception e) {
            // 412: the key exists. 409 ConditionalRequestConflict: a concurrent conditional write to the same key
            // is in flight; S3 lets exactly one of them win, and it is not this one.
            if (e.statusCode() == 412 && e.numAttempts() != null && e.numAttempts() > 1) {
                return createdByAnEarlierAttempt(key, content);
            }
            if (e.statusCode() == 412 || e.statusCode() == 409) {
                return false;
            }
            throw errors.translate(e, "PUT (create-only)", describe(key));
        } catch (SdkException e) {
            throw errors.translate(e, "PUT (create-only)", describe(key));
        }
    }

    /**
     * A 412 after a retry is ambiguous: the attempt whose response was lost (timeout, 5xx from a proxy) may have
     * created the object itself. If the stored bytes are exactly ours, this call's write is what landed. A racing
     * writer with byte-identical content would also pass, but then both outcomes publish the same object.
     */
    private boolean createdByAnEarlierAttempt(String key, byte[] content) throws IOException {
        try {
            boolean ours = Arrays.equals(readAllBytes(key), content);
            LOG.info("create-only PUT of {} was retried and then found the key taken; stored content {} ours",
                    describe(key), ours ? "is" : "is not");
            return ours;
        } catch (NoSuchObjectException deletedSince) {
            return false;
        }
    }

    @Override
    public void delete(String key) throws IOException {
        listed.forget(key);
        String s3Key = s3Key(key);
        try {
            client.deleteObject(b -> b.bucket(config.bucket()).key(s3Key));
        } catch (S3Exception e) {
            if (e.statusCode() == 404 && !"NoSuchBucket".equals(errorCode(e))) {
                return; // S3 itself answers 204 for absent keys; some compatible servers say 404
            }
            throw errors.translate(e, "DELETE", describe(key));
        } catch (SdkException e) {
            throw errors.translate(e, "DELETE", describe(key));
        }
    }

    @Override
    public List<IncompleteUpload> incompleteUploads(String dirPrefix) throws IOException {
        String prefix = config.keyPrefix() + S3Keys.requireDir(dirPrefix);
        List<IncompleteUpload> out = new ArrayList<>();
        String keyMarker = null;
        String uploadIdMarker = null;
        try {
            while (true) {
                ListMultipartUploadsRequest.Builder req = ListMultipartUploadsRequest.builder()
                        .bucket(config.bucket()).prefix(prefix).maxUploads(listPageSize);
                if (keyMarker != null) {
                    req.keyMarker(keyMarker).uploadIdMarker(uploadIdMarker);
                }
                ListMultipartUploadsResponse page = client.listMultipartUploads(req.build());
                for (MultipartUpload u : page.uploads()) {
                    out.add(new IncompleteUpload(u.key().substring(config.keyPrefix().length()), u.uploadId(),
                            u.initiated()));
                }
                if (!Boolean.TRUE.equals(page.isTruncated())) {
                    break;
                }
                keyMarker = page.nextKeyMarker();
                uploadIdMarker = page.nextUploadIdMarker();
            }
        } catch (S3Exception e) {
            if (e.statusCode() == 501 || "NotImplemented".equals(errorCode(e))) {
                // A server without ListMultipartUploads: nothing GC can see (a lifecycle rule still can).
                LOG.debug("{} does not list multipart uploads: {}", describe(dirPrefix), e.getMessage());
                return List.of();
            }
            throw errors.translate(e, "LIST multipart uploads of", describe(dirPrefix));
        } catch (SdkException e) {
            throw errors.translate(e, "LIST multipart uploads of", describe(dirPrefix));
        }
        out.sort(Comparator.comparing(IncompleteUpload::key).thenComparing(IncompleteUpload::uploadId));
        return out;
    }

    @Override
    public void abortUpload(IncompleteUpload upload) throws IOException {
        String s3Key = s3Key(upload.key());
        String operation = "abort multipart upload " + upload.uploadId() + " of";
        try {
            client.abortMultipartUpload(b -> b.bucket(config.bucket()).key(s3Key).uploadId(upload.uploadId()));
        } catch (S3Exception e) {
            if (e.statusCode() == 404 && "NoSuchUpload".equals(errorCode(e))) {
                return; // completed or aborted since it was listed
            }
            throw errors.translate(e, operation, describe(upload.key()));
        } catch (SdkException e) {
            throw errors.translate(e, operation, describe(upload.key()));
        }
    }

    @Override
    public String describe(String key) {
        return "s3://" + config.bucket() + "/" + config.keyPrefix() + key;
    }

    @Override
    public String toString() {
        return "S3 store s3://" + config.bucket() + "/" + config.prefix() + " at " + config.endpointForMessages();
    }

    @Override
    public void close() {
        client.close();
    }

    private String s3Key(String key) throws StoreException {
        return config.keyPrefix() + S3Keys.requireKey(key);
    }

    private static String errorCode(S3Exception e) {
        return e.awsErrorDetails() == null ? null : e.awsErrorDetails().errorCode();
    }
}
